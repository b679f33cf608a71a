import xtermHeadless from '@xterm/headless';
import { PANE_SCROLLBACK_LINES, PANE_TAIL_MAX_CHARS } from '../constants.ts';

const { Terminal } = xtermHeadless;

/** A title change with its arrival time. */
export interface TitleChange {
  readonly text: string;
  readonly at: number;
}

/** A pane's screen model: a real `@xterm/headless` terminal plus a bounded raw tail. */
export interface PaneScreen {
  write(display: string): void;
  resize(cols: number, rows: number): void;
  /** Resolves once every write so far has been parsed by the emulator. */
  settled(): Promise<void>;
  /** The rendered viewport rows, top to bottom, right-trimmed. */
  renderedRows(): string[];
  /** The retained raw tail (ANSI included), at most {@link PANE_TAIL_MAX_CHARS}. */
  tail(): string;
  /** Scrollback + viewport serialised as plain text lines (for snapshots). */
  serialize(maxRows: number): string;
  readonly cols: number;
  readonly rows: number;
  title(): TitleChange | null;
  onTitle(listener: (change: TitleChange) => void): void;
  /** The program enabled bracketed paste (DECSET 2004), as the emulator parsed it so far. */
  bracketedPaste(): boolean;
  dispose(): void;
}

/**
 * Creates the emulator for one pane. Titles (OSC 0/2) are tracked with the clock's arrival time.
 *
 * @example
 * const screen = createPaneScreen({ cols: 80, rows: 24 });
 * screen.write('hello'); await screen.settled(); screen.renderedRows()[0] // 'hello'
 */
export function createPaneScreen(opts: {
  cols: number;
  rows: number;
  scrollback?: number;
  now?: () => number;
}): PaneScreen {
  const now = opts.now ?? Date.now;
  const term = new Terminal({
    cols: opts.cols,
    rows: opts.rows,
    scrollback: opts.scrollback ?? PANE_SCROLLBACK_LINES,
    allowProposedApi: true,
  });
  let tail = '';
  let lastTitle: TitleChange | null = null;
  // Why: the emulator parses asynchronously; a title's arrival time is when its write arrived.
  const writeTimes: number[] = [];
  let written = 0;
  let parsed = 0;
  // Why: under constant output the queue never drains; a waiter waits only for writes made before it.
  let waiters: { upTo: number; resolve: () => void }[] = [];
  const titleListeners: ((change: TitleChange) => void)[] = [];
  term.onTitleChange((text) => {
    lastTitle = { text, at: writeTimes[0] ?? now() };
    for (const listener of titleListeners) listener(lastTitle);
  });
  const release = (): void => {
    writeTimes.shift();
    parsed += 1;
    if (waiters.length === 0) return;
    const ready = waiters.filter((w) => w.upTo <= parsed);
    if (ready.length === 0) return;
    waiters = waiters.filter((w) => w.upTo > parsed);
    for (const w of ready) w.resolve();
  };
  return {
    write(display) {
      if (display.length === 0) return;
      tail += display;
      if (tail.length > PANE_TAIL_MAX_CHARS * 2) tail = tail.slice(-PANE_TAIL_MAX_CHARS);
      written += 1;
      writeTimes.push(now());
      term.write(display, release);
    },
    resize(cols, rows) {
      term.resize(cols, rows);
    },
    settled() {
      if (parsed >= written) return Promise.resolve();
      const upTo = written;
      return new Promise((resolve) => waiters.push({ upTo, resolve }));
    },
    renderedRows() {
      const buffer = term.buffer.active;
      const rows: string[] = [];
      for (let y = 0; y < term.rows; y += 1) {
        rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
      }
      return rows;
    },
    tail() {
      return tail.length > PANE_TAIL_MAX_CHARS ? tail.slice(-PANE_TAIL_MAX_CHARS) : tail;
    },
    serialize(maxRows) {
      const buffer = term.buffer.active;
      const end = buffer.length;
      const start = Math.max(0, end - maxRows);
      const lines: string[] = [];
      for (let y = start; y < end; y += 1) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines.join('\r\n');
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    title: () => lastTitle,
    bracketedPaste: () => term.modes.bracketedPasteMode,
    onTitle(listener) {
      titleListeners.push(listener);
    },
    dispose() {
      term.dispose();
    },
  };
}
