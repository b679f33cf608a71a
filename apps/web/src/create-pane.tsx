import { useState } from 'preact/hooks';
import { splitArgv } from './argv.ts';
import { HostCallError, type HostSocket } from './host-socket.ts';

/** Creates a pane (`terminal.create`: argv, cwd, guest) and reports the host's answer. */
export function CreatePane(props: { socket: HostSocket; onCreated(handle: string): void }) {
  const [argv, setArgv] = useState('');
  const [cwd, setCwd] = useState('');
  const [guest, setGuest] = useState('');
  const [message, setMessage] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const args = splitArgv(argv);
    if (args.length === 0) return;
    try {
      const pane = await props.socket.call<{ handle: string }>('terminal.create', {
        argv: args,
        ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
        ...(guest.trim() ? { guest: guest.trim() } : {}),
      });
      setArgv('');
      setMessage(`created ${pane.handle}`);
      props.onCreated(pane.handle);
    } catch (error) {
      setMessage(`${error instanceof HostCallError ? error.code : 'error'}: ${(error as Error).message}`);
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
      {field('argv', argv, setArgv, 'command, e.g. claude')}
      {field('cwd', cwd, setCwd, 'cwd (optional)')}
      {field('guest', guest, setGuest, 'guest (optional)')}
      <button type="submit">Create pane</button>
      <output class="create-result">{message}</output>
    </form>
  );
}
