import { useState } from 'preact/hooks';
import { splitArgv } from './argv.ts';
import { HostCallError, type HostSocket } from './host-socket.ts';

/**
 * Creates a pane (`terminal.create`: name, argv, cwd, guest) and reports the host's answer: a
 * command or directory that cannot start is refused by the host and shown as a failure.
 */
export function CreatePane(props: { socket: HostSocket; onCreated(handle: string): void }) {
  const [name, setName] = useState('');
  const [argv, setArgv] = useState('');
  const [cwd, setCwd] = useState('');
  const [guest, setGuest] = useState('');
  const [message, setMessage] = useState<{ outcome: 'created' | 'failed'; text: string } | null>(null);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const args = splitArgv(argv);
    if (args.length === 0) return;
    try {
      const pane = await props.socket.call('terminal.create', {
        argv: args,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
        ...(guest.trim() ? { guest: guest.trim() } : {}),
      });
      setArgv('');
      setName('');
      setMessage({ outcome: 'created', text: `created ${pane.name ? `${pane.name} (${pane.handle})` : pane.handle}` });
      props.onCreated(pane.handle);
    } catch (error) {
      const code = error instanceof HostCallError ? error.code : 'error';
      setMessage({ outcome: 'failed', text: `failed to start (${code}): ${(error as Error).message}` });
    }
  };
  const field = (name: string, value: string, set: (v: string) => void, placeholder: string) => (
    <input
      name={name}
      aria-label={name}
      placeholder={placeholder}
      value={value}
      onInput={(e) => set((e.currentTarget as HTMLInputElement).value)}
    />
  );
  return (
    <form class="create-pane" onSubmit={(e) => void submit(e)}>
      {field('name', name, setName, 'name (optional)')}
      {field('argv', argv, setArgv, 'command, e.g. claude')}
      {field('cwd', cwd, setCwd, 'cwd (optional)')}
      {field('guest', guest, setGuest, 'guest (optional)')}
      <button type="submit">Create pane</button>
      <output class="create-result" data-outcome={message?.outcome ?? ''}>
        {message?.text ?? ''}
      </output>
    </form>
  );
}
