import { SerializeAddon } from '@xterm/addon-serialize';
import xtermHeadless from '@xterm/headless';
import { EXITED_PANE_SNAPSHOT_LINES, PANE_SCROLLBACK_LINES, PANE_TAIL_MAX_CHARS } from '../constants.ts';

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
  /** Scrollback + viewport serialised as plain text lines. */
  serialize(maxRows: number): string;
  /**
   * The attach snapshot: viewport plus `scrollbackRows` of scrollback as terminal input that
   * rebuilds the screen — colours, attributes, cursor position, modes, the alternate screen
   * (`@xterm/addon-serialize`). Over `maxBytes` it drops the scrollback, then falls back to the last
   * plain rows that fit (`truncatedByByteBudget`). An exited pane answers with its final screen.
   */
  snapshot(opts: { scrollbackRows: number; maxBytes: number }): { data: string; truncatedByByteBudget?: true };
  readonly cols: number;
  readonly rows: number;
  title(): TitleChange | null;
  onTitle(listener: (change: TitleChange) => void): void;
  /** The program enabled bracketed paste (DECSET 2004), as the emulator parsed it so far. */
  bracketedPaste(): boolean;
  /**
   * Keeps what the screen shows now (rendered rows, the last {@link EXITED_PANE_SNAPSHOT_LINES}
   * lines, title, tail, size, modes) in a small frozen copy and disposes the emulator. Every
   * reader keeps answering from that copy; later writes only extend the tail; resizes are ignored.
   * Call it once the pane's process has exited and {@link PaneScreen.settled} resolved.
   */
  freeze(): void;
  /** True once {@link PaneScreen.freeze} replaced the emulator. */
  readonly frozen: boolean;
  dispose(): void;
}

/** The final screen of an exited pane: plain strings, no emulator. */
interface FrozenScreen {
  readonly rendered: readonly string[];
  /** The final viewport as terminal input (no scrollback). */
  readonly ansi: string;
  readonly lines: readonly string[];
  readonly cols: number;
  readonly rows: number;
  readonly bracketedPaste: boolean;
}

/** Why: a `slice` of a big string can keep the whole parent alive; a frozen copy must not. */
function flatCopy(text: string): string {
  return text.length === 0 ? '' : Buffer.from(text, 'utf16le').toString('utf16le');
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
  let emulator: InstanceType<typeof Terminal> | null = new Terminal({
    cols: opts.cols,
    rows: opts.rows,
    scrollback: opts.scrollback ?? PANE_SCROLLBACK_LINES,
    allowProposedApi: true,
  });
  let tail = '';
  let frozen: FrozenScreen | null = null;
  let lastTitle: TitleChange | null = null;
  // Why: the emulator parses asynchronously; a title's arrival time is when its write arrived.
  const writeTimes: number[] = [];
  // Why: a snapshot taken while writes are still queued in the emulator must carry them, or the
  // bytes between the last parse and a new subscriber's live output would be lost.
  const unparsed: string[] = [];
  let written = 0;
  let parsed = 0;
  // Why: under constant output the queue never drains; a waiter waits only for writes made before it.
  let waiters: { upTo: number; resolve: () => void }[] = [];
  const titleListeners: ((change: TitleChange) => void)[] = [];
  /** The live emulator; only called while not frozen. */
  const term = (): InstanceType<typeof Terminal> => {
    if (!emulator) throw new Error('the pane screen is frozen');
    return emulator;
  };
  // Why: the addon holds its terminal; it is dropped with the emulator at freeze.
  let serializer: SerializeAddon | null = new SerializeAddon();
  term().loadAddon(serializer);
  // Why: the addon places the cursor with relative moves, one cell off after a full-width last row
  // (the pending-wrap state); an absolute move at the end puts it exactly where the emulator has it.
  const serialized = (scrollback: number): string => {
    const buffer = term().buffer.active;
    const text = serializer?.serialize({ scrollback }) ?? '';
    return `${text}\x1b[${buffer.cursorY + 1};${buffer.cursorX + 1}H${unparsed.join('')}`;
  };
  term().onTitleChange((text) => {
    lastTitle = { text, at: writeTimes[0] ?? now() };
    for (const listener of titleListeners) listener(lastTitle);
  });
  const release = (): void => {
    writeTimes.shift();
    unparsed.shift();
    parsed += 1;
    if (waiters.length === 0) return;
    const ready = waiters.filter((w) => w.upTo <= parsed);
    if (ready.length === 0) return;
    waiters = waiters.filter((w) => w.upTo > parsed);
    for (const w of ready) w.resolve();
  };
  const liveLines = (maxRows: number): string[] => {
    const buffer = term().buffer.active;
    const end = buffer.length;
    const lines: string[] = [];
    for (let y = Math.max(0, end - maxRows); y < end; y += 1)
      lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return lines;
  };
  const liveRendered = (): string[] => {
    const buffer = term().buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < term().rows; y += 1) {
      rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    }
    return rows;
  };
  return {
    write(display) {
      if (display.length === 0) return;
      tail += display;
      if (tail.length > PANE_TAIL_MAX_CHARS * 2) tail = tail.slice(-PANE_TAIL_MAX_CHARS);
      if (frozen) return;
      written += 1;
      writeTimes.push(now());
      unparsed.push(display);
      term().write(display, release);
    },
    resize(cols, rows) {
      if (!frozen) term().resize(cols, rows);
    },
    settled() {
      if (frozen || parsed >= written) return Promise.resolve();
      const upTo = written;
      return new Promise((resolve) => waiters.push({ upTo, resolve }));
    },
    renderedRows() {
      return frozen ? [...frozen.rendered] : liveRendered();
    },
    tail() {
      return tail.length > PANE_TAIL_MAX_CHARS ? tail.slice(-PANE_TAIL_MAX_CHARS) : tail;
    },
    snapshot({ scrollbackRows, maxBytes }) {
      const fits = (text: string) => Buffer.byteLength(text) <= maxBytes;
      const full = frozen ? frozen.ansi : serialized(scrollbackRows);
      if (fits(full)) return { data: full };
      const viewport = frozen || scrollbackRows === 0 ? full : serialized(0);
      if (fits(viewport)) return { data: viewport };
      // Why: one budget holds for any screen; the newest plain rows are what a reader needs most.
      let plain = this.serialize(this.rows);
      while (plain.length > 0 && !fits(plain)) plain = plain.slice(plain.indexOf('\n') + 1 || plain.length);
      return { data: plain, truncatedByByteBudget: true };
    },
    serialize(maxRows) {
      const lines = frozen ? frozen.lines.slice(Math.max(0, frozen.lines.length - maxRows)) : liveLines(maxRows);
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines.join('\r\n');
    },
    get cols() {
      return frozen ? frozen.cols : term().cols;
    },
    get rows() {
      return frozen ? frozen.rows : term().rows;
    },
    title: () => lastTitle,
    bracketedPaste: () => (frozen ? frozen.bracketedPaste : term().modes.bracketedPasteMode),
    onTitle(listener) {
      titleListeners.push(listener);
    },
    freeze() {
      if (frozen) return;
      frozen = Object.freeze({
        rendered: Object.freeze(liveRendered()),
        ansi: flatCopy(serialized(0)),
        lines: Object.freeze(liveLines(EXITED_PANE_SNAPSHOT_LINES)),
        cols: term().cols,
        rows: term().rows,
        bracketedPaste: term().modes.bracketedPasteMode,
      });
      tail = flatCopy(tail.length > PANE_TAIL_MAX_CHARS ? tail.slice(-PANE_TAIL_MAX_CHARS) : tail);
      writeTimes.length = 0;
      unparsed.length = 0;
      // Why: nothing is left to parse; a waiter still queued must not hang on a disposed emulator.
      for (const w of waiters.splice(0)) w.resolve();
      serializer?.dispose();
      serializer = null;
      term().dispose();
      // Why: the methods' closure would otherwise keep the disposed emulator's buffers alive.
      emulator = null;
    },
    get frozen() {
      return frozen !== null;
    },
    dispose() {
      // Why: a reader racing the shutdown gets the last screen rather than a disposed emulator.
      this.freeze();
    },
  };
}
