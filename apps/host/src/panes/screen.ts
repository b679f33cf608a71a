import { PANE_SCROLLBACK_LINES, PANE_TAIL_MAX_CHARS } from '../constants.ts';
import {
  createEmulator,
  type FrozenScreen,
  flatCopy,
  joinLines,
  type ScreenSnapshot,
  snapshotWithin,
} from './screen-emulator.ts';

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
  /** True when every write so far has been parsed ({@link settled} would resolve at once). */
  caughtUp(): boolean;
  /**
   * The rendered viewport rows, top to bottom, right-trimmed, as of the last {@link settled}
   * (an emulator in this thread may show later writes too). `await settled()` first for a
   * screen that holds every write so far.
   */
  renderedRows(): readonly string[];
  /**
   * The rendered viewport rows holding every write so far (a blocking call when the emulator is
   * in a worker): for a reader that cannot wait, such as `orca terminal show`.
   */
  currentRows(): string[];
  /** The retained raw tail (ANSI included), at most {@link PANE_TAIL_MAX_CHARS}. */
  tail(): string;
  /** Scrollback + viewport serialised as plain text lines, every write so far included. */
  serialize(maxRows: number): string;
  /**
   * The attach snapshot: viewport plus `scrollbackRows` of scrollback as terminal input that
   * rebuilds the screen — colours, attributes, cursor position, modes, the alternate screen
   * (`@xterm/addon-serialize`) — holding every write so far. Over `maxBytes` it drops the
   * scrollback, then falls back to the last plain rows that fit (`truncatedByByteBudget`). An
   * exited pane answers with its final screen.
   */
  snapshot(opts: { scrollbackRows: number; maxBytes: number }): ScreenSnapshot;
  readonly cols: number;
  readonly rows: number;
  title(): TitleChange | null;
  onTitle(listener: (change: TitleChange) => void): void;
  /**
   * Flow control: `true` when the emulator fell too far behind the pane's output (stop reading the
   * PTY), `false` once it caught up. An emulator in this thread never asks.
   */
  onFlowControl(listener: (pause: boolean) => void): void;
  /** The program enabled bracketed paste (DECSET 2004), as of the last {@link settled}. */
  bracketedPaste(): boolean;
  /**
   * Keeps what the screen shows now (rendered rows, the last `EXITED_PANE_SNAPSHOT_LINES`
   * lines, title, tail, size, modes) in a small frozen copy and disposes the emulator. Every
   * reader keeps answering from that copy; later writes only extend the tail; resizes are ignored.
   * Call it once the pane's process has exited and {@link PaneScreen.settled} resolved.
   */
  freeze(): void;
  /** True once {@link PaneScreen.freeze} replaced the emulator. */
  readonly frozen: boolean;
  dispose(): void;
}

/**
 * Where a pane's emulator lives: in this thread ({@link inThreadScreens}) or in a screen worker
 * (`createScreenPool`). The backend parses; the pane screen keeps the tail, titles and the freeze.
 */
export interface ScreenBackend {
  /** Queues `display`, written at `at` (the title of a write carries that time). */
  write(display: string, at: number): void;
  resize(cols: number, rows: number): void;
  settled(): Promise<void>;
  /** Every write so far is parsed. */
  caughtUp(): boolean;
  renderedRows(): readonly string[];
  bracketedPaste(): boolean;
  /** Every write so far parsed: the viewport, the snapshot, and the plain lines. */
  currentRows(): string[];
  snapshot(scrollbackRows: number, maxBytes: number): ScreenSnapshot;
  lines(maxRows: number): string[];
  onTitle(listener: (text: string, at: number) => void): void;
  /** See {@link PaneScreen.onFlowControl}; optional (a backend that never falls behind). */
  onFlowControl?(listener: (pause: boolean) => void): void;
  /** The final screen; the backend's emulator is gone after it. */
  freeze(): FrozenScreen;
}

/** Opens the backend of one pane screen. */
export type ScreenEngine = (opts: {
  cols: number;
  rows: number;
  scrollback: number;
  now: () => number;
}) => ScreenBackend;

/**
 * Creates the screen of one pane over `engine` (default: the emulator in this thread). Titles
 * (OSC 0/2) carry the arrival time of the write that held them.
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
  engine?: ScreenEngine;
}): PaneScreen {
  const now = opts.now ?? Date.now;
  let backend: ScreenBackend | null = (opts.engine ?? inThreadScreens)({
    cols: opts.cols,
    rows: opts.rows,
    scrollback: opts.scrollback ?? PANE_SCROLLBACK_LINES,
    now,
  });
  let cols = opts.cols;
  let rows = opts.rows;
  let tail = '';
  let frozen: FrozenScreen | null = null;
  let lastTitle: TitleChange | null = null;
  const titleListeners: ((change: TitleChange) => void)[] = [];
  const keptTail = (): string => (tail.length > PANE_TAIL_MAX_CHARS ? tail.slice(-PANE_TAIL_MAX_CHARS) : tail);
  backend.onTitle((text, at) => {
    lastTitle = { text, at };
    for (const listener of titleListeners) listener(lastTitle);
  });
  /** The live backend; only called while not frozen. */
  const live = (): ScreenBackend => {
    if (!backend) throw new Error('the pane screen is frozen');
    return backend;
  };
  return {
    write(display) {
      if (display.length === 0) return;
      tail += display;
      if (tail.length > PANE_TAIL_MAX_CHARS * 2) tail = tail.slice(-PANE_TAIL_MAX_CHARS);
      if (!frozen) live().write(display, now());
    },
    resize(c, r) {
      if (frozen) return;
      cols = c;
      rows = r;
      live().resize(c, r);
    },
    settled: () => (frozen ? Promise.resolve() : live().settled()),
    caughtUp: () => frozen !== null || live().caughtUp(),
    renderedRows: () => (frozen ? frozen.rendered : live().renderedRows()),
    currentRows: () => (frozen ? [...frozen.rendered] : live().currentRows()),
    tail: keptTail,
    snapshot({ scrollbackRows, maxBytes }) {
      if (!frozen) return live().snapshot(scrollbackRows, maxBytes);
      const final = frozen;
      return snapshotWithin(maxBytes, {
        full: () => final.ansi,
        viewport: () => final.ansi,
        plain: () => joinLines(final.lines.slice(Math.max(0, final.lines.length - final.rows))),
      });
    },
    serialize(maxRows) {
      return joinLines(frozen ? frozen.lines.slice(Math.max(0, frozen.lines.length - maxRows)) : live().lines(maxRows));
    },
    get cols() {
      return frozen ? frozen.cols : cols;
    },
    get rows() {
      return frozen ? frozen.rows : rows;
    },
    title: () => lastTitle,
    bracketedPaste: () => (frozen ? frozen.bracketedPaste : live().bracketedPaste()),
    onTitle(listener) {
      titleListeners.push(listener);
    },
    onFlowControl(listener) {
      backend?.onFlowControl?.(listener);
    },
    freeze() {
      if (frozen) return;
      frozen = Object.freeze(live().freeze());
      tail = flatCopy(keptTail());
      // Why: the methods' closure would otherwise keep the disposed emulator's buffers alive.
      backend = null;
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

/** The emulator in this thread: parsed between this thread's other work (the default engine). */
export const inThreadScreens: ScreenEngine = (opts) => {
  const emulator = createEmulator(opts);
  // Why: the emulator parses asynchronously; a title's arrival time is when its write arrived.
  const writeTimes: number[] = [];
  // Why: a snapshot taken while writes are still queued in the emulator must carry them, or the
  // bytes between the last parse and a new subscriber's live output would be lost.
  const unparsed: string[] = [];
  let written = 0;
  let parsed = 0;
  // Why: under constant output the queue never drains; a waiter waits only for writes made before it.
  let waiters: { upTo: number; resolve: () => void }[] = [];
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
  const withUnparsed = (text: string): string => `${text}${unparsed.join('')}`;
  return {
    write(display, at) {
      written += 1;
      writeTimes.push(at);
      unparsed.push(display);
      emulator.write(display, release);
    },
    resize: (cols, rows) => emulator.resize(cols, rows),
    settled() {
      if (parsed >= written) return Promise.resolve();
      const upTo = written;
      return new Promise((resolve) => waiters.push({ upTo, resolve }));
    },
    caughtUp: () => parsed >= written,
    renderedRows: () => emulator.renderedRows(),
    // Why: in this thread a write is parsed within a turn of the loop; this answers what is parsed now.
    currentRows: () => emulator.renderedRows(),
    bracketedPaste: () => emulator.bracketedPaste(),
    snapshot: (scrollbackRows, maxBytes) =>
      snapshotWithin(maxBytes, {
        full: () => withUnparsed(emulator.serialized(scrollbackRows)),
        viewport: () => withUnparsed(emulator.serialized(0)),
        plain: () => joinLines(emulator.lines(emulator.rows)),
      }),
    lines: (maxRows) => emulator.lines(maxRows),
    onTitle(listener) {
      emulator.onTitle((text) => listener(text, writeTimes[0] ?? opts.now()));
    },
    freeze() {
      const final = emulator.frozen();
      writeTimes.length = 0;
      unparsed.length = 0;
      // Why: nothing is left to parse; a waiter still queued must not hang on a disposed emulator.
      for (const w of waiters.splice(0)) w.resolve();
      emulator.dispose();
      return final;
    },
  };
};
