import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { HostCallError, type HostSocket } from './host-socket.ts';

/** Widths at or under this are phone layouts: the terminal is read-only, the prompt box is the way in. */
export const PHONE_MAX_WIDTH_PX = 600;

/**
 * A pane's terminal: `@xterm/xterm` attached through `terminal.multiplex` — the snapshot first,
 * then live output; what is typed goes to the pane's PTY (not on a phone-width screen, where a
 * stray tap or autocorrect would reach the agent: there it is read-only).
 */
export function PaneTerminal(props: { socket: HostSocket; handle: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'attaching' | 'live' | 'ended' | string>('attaching');
  const [readOnly] = useState(() => matchMedia(`(max-width: ${PHONE_MAX_WIDTH_PX}px)`).matches);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const term = new Terminal({
      cursorBlink: !readOnly,
      disableStdin: readOnly,
      fontSize: readOnly ? 11 : 14,
      scrollback: 5000,
    });
    term.open(element);
    // Why: on a desktop the page claims the pane's viewport (its size follows the window, as
    // `orca attach` does with a terminal); a read-only phone view shows the pane at its own size.
    const fit = readOnly ? null : new FitAddon();
    if (fit) {
      term.loadAddon(fit);
      fit.fit();
    }
    const client = props.socket.terminal();
    let subscribed = false;
    const claim = (): void => {
      if (!fit || !subscribed) return;
      fit.fit();
      client.claimViewport(streamId, term.cols, term.rows);
    };
    const streamId = client.subscribe({
      terminal: props.handle,
      viewport: { cols: term.cols, rows: term.rows },
      sink: {
        onSnapshot: (s) => {
          // Why: a snapshot is drawn at the size it was taken at; a claim resizes after.
          if (s.meta.cols !== term.cols || s.meta.rows !== term.rows) term.resize(s.meta.cols, s.meta.rows);
          if (s.route === 'recovery') term.reset();
          term.write(s.data);
        },
        onSubscribed: () => {
          subscribed = true;
          claim();
          setState('live');
        },
        onOutput: (text) => term.write(text),
        onResized: (r) => {
          if (r.cols !== term.cols || r.rows !== term.rows) term.resize(r.cols, r.rows);
        },
        onError: (message) => setState(`error: ${message}`),
        onEnd: () => setState('ended'),
      },
    });
    const typing = term.onData((data) => {
      if (!readOnly) client.input(streamId, data);
    });
    let frame = 0;
    const onWindowResize = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(claim);
    };
    addEventListener('resize', onWindowResize);
    if (!readOnly) term.focus();
    return () => {
      removeEventListener('resize', onWindowResize);
      cancelAnimationFrame(frame);
      typing.dispose();
      client.unsubscribe(streamId);
      term.dispose();
    };
  }, [props.socket, props.handle, readOnly]);
  return (
    <section class="pane" data-readonly={readOnly ? 'true' : 'false'}>
      <p class="pane-state" data-state={state}>
        {state}
      </p>
      <div class="pane-terminal" ref={host} />
      <PromptBox socket={props.socket} handle={props.handle} />
    </section>
  );
}

type DispatchOutcome =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'refused'; code: string; message: string };

/**
 * Sends a prompt through the host's guarded `terminal.dispatch` (send guard, `beforeSubmitPrompt`
 * hooks, verified submission) and shows a refusal's code and reason.
 */
export function PromptBox(props: { socket: HostSocket; handle: string }) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<DispatchOutcome>({ kind: 'idle' });
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const prompt = text.trim();
    if (prompt.length === 0) return;
    setOutcome({ kind: 'sending' });
    try {
      await props.socket.call('terminal.dispatch', { handle: props.handle, inject: prompt });
      setText('');
      setOutcome({ kind: 'sent' });
    } catch (error) {
      const code = error instanceof HostCallError ? error.code : 'error';
      setOutcome({ kind: 'refused', code, message: (error as Error).message });
    }
  };
  return (
    <form class="prompt-box" onSubmit={(e) => void submit(e)}>
      <input
        name="prompt"
        aria-label="prompt"
        placeholder="Prompt the agent (guarded dispatch)"
        value={text}
        onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
      />
      <button type="submit" disabled={outcome.kind === 'sending'}>
        Send
      </button>
      <output
        class="dispatch-result"
        data-outcome={outcome.kind}
        data-code={outcome.kind === 'refused' ? outcome.code : ''}
      >
        {outcome.kind === 'refused'
          ? `${outcome.code}: ${outcome.message}`
          : outcome.kind === 'idle'
            ? ''
            : outcome.kind}
      </output>
    </form>
  );
}
