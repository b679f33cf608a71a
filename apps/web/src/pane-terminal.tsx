import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { HostSocket } from './host-socket.ts';

/**
 * A pane's terminal: `@xterm/xterm` attached through `terminal.multiplex` — the snapshot first,
 * then live output; what is typed goes to the pane's PTY.
 */
export function PaneTerminal(props: { socket: HostSocket; handle: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'attaching' | 'live' | 'ended' | string>('attaching');
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const term = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 5000 });
    term.open(element);
    const client = props.socket.terminal();
    const streamId = client.subscribe({
      terminal: props.handle,
      viewport: { cols: term.cols, rows: term.rows },
      sink: {
        onSnapshot: (s) => {
          // Why: the pane keeps its own size; show its screen at that size rather than reflowing it.
          if (s.meta.cols !== term.cols || s.meta.rows !== term.rows) term.resize(s.meta.cols, s.meta.rows);
          if (s.route === 'recovery') term.reset();
          term.write(s.data);
        },
        onSubscribed: () => setState('live'),
        onOutput: (text) => term.write(text),
        onResized: (r) => term.resize(r.cols, r.rows),
        onError: (message) => setState(`error: ${message}`),
        onEnd: () => setState('ended'),
      },
    });
    const typing = term.onData((data) => {
      client.input(streamId, data);
    });
    term.focus();
    return () => {
      typing.dispose();
      client.unsubscribe(streamId);
      term.dispose();
    };
  }, [props.socket, props.handle]);
  return (
    <section class="pane">
      <p class="pane-state" data-state={state}>
        {state}
      </p>
      <div class="pane-terminal" ref={host} />
    </section>
  );
}
