import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type BoardPane, hasNoAgent } from './board-model.ts';
import { HostCallError, type HostSocket } from './host-socket.ts';
import { isLeaveKey } from './keys.ts';
import { PaneQueue } from './pane-queue.tsx';
import type { QueueItem } from './queue-model.ts';

/** What the state line says while the host refuses keys (a prompt is being delivered). */
const INPUT_REFUSED = 'input refused: a prompt is being delivered';
/** How long that notice stays (ms). */
const REFUSED_NOTICE_MS = 3_000;

/** Scrollback the page asks the host's emulator for once attached, and keeps (lines). */
export const PAGE_SCROLLBACK_LINES = 10_000;

/** Widths at or under this are phone layouts: the terminal is read-only, the prompt box is the way in. */
export const PHONE_MAX_WIDTH_PX = 600;

/**
 * A pane's terminal: `@xterm/xterm` attached through `terminal.multiplex` — the snapshot first,
 * then live output; what is typed goes to the pane's PTY (not on a phone-width screen, where a
 * stray tap or autocorrect would reach the agent: there it is read-only).
 */
export function PaneTerminal(props: {
  socket: HostSocket;
  handle: string;
  /** The pane as the board lists it (absent until listed): says whether an agent can be prompted. */
  pane: BoardPane | undefined;
  onQueueChange: (listener: (item: QueueItem) => void) => () => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const terminal = useRef<{ term: Terminal; search: SearchAddon } | null>(null);
  const [state, setState] = useState<'attaching' | 'live' | 'ended' | string>('attaching');
  const [readOnly] = useState(() => matchMedia(`(max-width: ${PHONE_MAX_WIDTH_PX}px)`).matches);
  const [history, setHistory] = useState(false);
  const [copied, setCopied] = useState('');
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const term = new Terminal({
      cursorBlink: !readOnly,
      disableStdin: readOnly,
      fontSize: readOnly ? 11 : 14,
      scrollback: PAGE_SCROLLBACK_LINES,
    });
    const search = new SearchAddon();
    term.loadAddon(search);
    // Why: Ctrl+C belongs to the agent (an interrupt); Ctrl+Shift+C (Cmd+C) copies the selection.
    term.attachCustomKeyEventHandler((e) => {
      // Why: Ctrl+] is the page's (back to the board); the window's key handler acts on it.
      if (isLeaveKey(e)) return false;
      const copyKey = e.type === 'keydown' && e.key.toLowerCase() === 'c' && ((e.ctrlKey && e.shiftKey) || e.metaKey);
      if (!copyKey || !term.hasSelection()) return true;
      void navigator.clipboard?.writeText(term.getSelection()).catch(() => undefined);
      return false;
    });
    term.open(element);
    terminal.current = { term, search };
    // Why: on a desktop the page claims the pane's viewport (its size follows the window, as
    // `orca attach` does with a terminal); a read-only phone view shows the pane at its own size.
    const fit = readOnly ? null : new FitAddon();
    if (fit) {
      term.loadAddon(fit);
      fit.fit();
    }
    const client = props.socket.terminal();
    let subscribed = false;
    let refusedTimer: ReturnType<typeof setTimeout> | undefined;
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
          // Why: the history snapshot (and a recovery) redraws everything, scrollback included.
          if (s.route !== 'initial') term.reset();
          term.write(s.data);
          if (s.route !== 'initial') {
            // Why: that snapshot was drawn at the size it was taken at; the page claims its own again.
            claim();
            if (s.route === 'request') setHistory(true);
          }
        },
        onSubscribed: () => {
          subscribed = true;
          // Why: the first paint is the screen alone (fast); the history follows from the host's emulator.
          client.requestSnapshot(streamId, { scrollbackRows: PAGE_SCROLLBACK_LINES });
          claim();
          setState('live');
        },
        onOutput: (text) => term.write(text),
        onResized: (r) => {
          if (r.cols !== term.cols || r.rows !== term.rows) term.resize(r.cols, r.rows);
        },
        onError: (message) => setState(`error: ${message}`),
        // Why: the host refuses keys while a prompt is being delivered into the pane (one writer per pane).
        onWriteUnavailable: () => {
          setState(INPUT_REFUSED);
          clearTimeout(refusedTimer);
          refusedTimer = setTimeout(() => setState((s) => (s === INPUT_REFUSED ? 'live' : s)), REFUSED_NOTICE_MS);
        },
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
      clearTimeout(refusedTimer);
      client.unsubscribe(streamId);
      terminal.current = null;
      term.dispose();
    };
  }, [props.socket, props.handle, readOnly]);
  const p = props.pane;
  const promptable = p !== undefined && !p.exited && !hasNoAgent(p);
  return (
    <section class="pane" data-readonly={readOnly ? 'true' : 'false'} data-history={history ? 'loaded' : 'pending'}>
      <div class="pane-tools">
        <p class="pane-state" data-state={state}>
          {state}
        </p>
        <TerminalSearch terminal={terminal} />
        <button
          type="button"
          class="copy-selection"
          title="copy the selected text (or Ctrl+Shift+C in the terminal)"
          onClick={() => {
            const t = terminal.current?.term;
            const text = t?.getSelection() ?? '';
            if (text === '') setCopied('select text in the terminal first');
            else
              void navigator.clipboard
                .writeText(text)
                .then(() => setCopied(`copied ${text.length} characters`))
                .catch((error: Error) => setCopied(`copy failed: ${error.message}`));
          }}
        >
          copy
        </button>
        <output class="copy-result">{copied}</output>
      </div>
      <div class="pane-terminal" ref={host} />
      {promptable && <PromptBox socket={props.socket} handle={props.handle} />}
      {promptable && <PaneQueue socket={props.socket} handle={props.handle} onQueueChange={props.onQueueChange} />}
      {p !== undefined && !promptable && (
        <p class="no-prompt">
          {p.exited
            ? 'This pane has exited: nothing can be sent to it.'
            : 'No agent runs in this pane, so there is no prompt box: type in the terminal.'}
        </p>
      )}
    </section>
  );
}

/** Find in the terminal (scrollback included): Enter for the next match, Shift+Enter for the previous. */
function TerminalSearch(props: { terminal: { current: { search: SearchAddon } | null } }) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<'' | 'found' | 'none'>('');
  const find = (back: boolean): void => {
    const search = props.terminal.current?.search;
    if (!search || text === '') return;
    const hit = back ? search.findPrevious(text) : search.findNext(text);
    setFound(hit ? 'found' : 'none');
  };
  return (
    <form
      class="term-search"
      onSubmit={(e) => {
        e.preventDefault();
        find(false);
      }}
    >
      <input
        name="find"
        aria-label="find in the terminal"
        placeholder="find (Enter / Shift+Enter)"
        value={text}
        onInput={(e) => {
          setText((e.currentTarget as HTMLInputElement).value);
          setFound('');
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.shiftKey) {
            e.preventDefault();
            find(true);
          }
        }}
      />
      <output class="find-result" data-found={found}>
        {found === 'none' ? 'no match' : ''}
      </output>
    </form>
  );
}

type DispatchOutcome =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'queued'; id: number; position?: number }
  | { kind: 'refused'; code: string; message: string };

/**
 * Sends a prompt through the host's guarded `terminal.dispatch` (send guard, `beforeSubmitPrompt`
 * hooks, verified submission), or queues it (`queue.add`: delivered when the agent is ready), and
 * shows a refusal's code and reason.
 */
export function PromptBox(props: { socket: HostSocket; handle: string }) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<DispatchOutcome>({ kind: 'idle' });
  const send = async (mode: 'send' | 'queue'): Promise<void> => {
    const prompt = text.trim();
    if (prompt.length === 0) return;
    setOutcome({ kind: 'sending' });
    try {
      if (mode === 'queue') {
        const item = await props.socket.call('queue.add', {
          handle: props.handle,
          prompt,
          source: 'web',
        });
        setOutcome({
          kind: 'queued',
          id: item.id,
          ...(item.position !== undefined ? { position: item.position } : {}),
        });
      } else {
        await props.socket.call('terminal.dispatch', { handle: props.handle, inject: prompt });
        setOutcome({ kind: 'sent' });
      }
      setText('');
    } catch (error) {
      const code = error instanceof HostCallError ? error.code : 'error';
      setOutcome({ kind: 'refused', code, message: (error as Error).message });
    }
  };
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    await send('send');
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
      <button
        type="button"
        class="queue-add"
        disabled={outcome.kind === 'sending'}
        title="deliver when the agent is ready (after its turn, after any dialog)"
        onClick={() => void send('queue')}
      >
        Queue
      </button>
      <output
        class="dispatch-result"
        data-outcome={outcome.kind}
        data-code={outcome.kind === 'refused' ? outcome.code : ''}
      >
        {outcome.kind === 'refused'
          ? `${outcome.code}: ${outcome.message}`
          : outcome.kind === 'queued'
            ? `queued #${outcome.position ?? '?'} (id ${outcome.id})`
            : outcome.kind === 'idle'
              ? ''
              : outcome.kind}
      </output>
    </form>
  );
}
