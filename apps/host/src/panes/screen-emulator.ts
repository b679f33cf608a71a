import { SerializeAddon } from '@xterm/addon-serialize';
import xtermHeadless from '@xterm/headless';
import { EXITED_PANE_SNAPSHOT_LINES } from '../constants.ts';

const { Terminal } = xtermHeadless;

/** An attach snapshot: terminal input that rebuilds the screen, cut to a byte budget. */
export interface ScreenSnapshot {
  readonly data: string;
  readonly truncatedByByteBudget?: true;
}

/** What the host mirrors of a pane's emulator besides its rows (enough to rebuild it elsewhere). */
export interface ScreenModes {
  /** DECSET 2004. */
  readonly bracketedPaste: boolean;
  /** The alternate screen buffer is active. */
  readonly alternate: boolean;
  readonly cursorX: number;
  readonly cursorY: number;
}

/** The final screen of an exited pane: plain strings, no emulator. */
export interface FrozenScreen {
  readonly rendered: readonly string[];
  /** The final viewport as terminal input (no scrollback). */
  readonly ansi: string;
  readonly lines: readonly string[];
  readonly cols: number;
  readonly rows: number;
  readonly bracketedPaste: boolean;
}

/**
 * One `@xterm/headless` terminal with the reads a pane needs. It holds no time and no queue of its
 * own: the pane screen in this thread ({@link createPaneScreen}) and the screen worker both wrap it.
 */
export interface Emulator {
  /** Queues `data`; `parsed` runs once it (and everything before it) is parsed. */
  write(data: string, parsed?: () => void): void;
  resize(cols: number, rows: number): void;
  /** The viewport rows, top to bottom, right-trimmed. */
  renderedRows(): string[];
  /** The last `maxRows` lines of scrollback + viewport as plain text. */
  lines(maxRows: number): string[];
  /** Viewport plus `scrollbackRows` of scrollback as terminal input, cursor placed exactly. */
  serialized(scrollbackRows: number): string;
  bracketedPaste(): boolean;
  /** Bracketed paste, the active buffer and the cursor, as the host mirrors them. */
  modes(): ScreenModes;
  onTitle(listener: (text: string) => void): void;
  readonly cols: number;
  readonly rows: number;
  /** What the screen shows now, kept as plain strings (then {@link dispose} it). */
  frozen(): FrozenScreen;
  dispose(): void;
}

/**
 * Creates an emulator.
 *
 * @example
 * const emu = createEmulator({ cols: 80, rows: 24, scrollback: 1000 });
 * emu.write('hello', () => emu.renderedRows()[0]); // 'hello'
 */
export function createEmulator(opts: { cols: number; rows: number; scrollback: number }): Emulator {
  const term = new Terminal({ cols: opts.cols, rows: opts.rows, scrollback: opts.scrollback, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  const renderedRows = (): string[] => {
    const buffer = term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < term.rows; y += 1)
      rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return rows;
  };
  const lines = (maxRows: number): string[] => {
    const buffer = term.buffer.active;
    const end = buffer.length;
    const out: string[] = [];
    for (let y = Math.max(0, end - maxRows); y < end; y += 1)
      out.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return out;
  };
  // Why: the addon places the cursor with relative moves, one cell off after a full-width last row
  // (the pending-wrap state); an absolute move at the end puts it exactly where the emulator has it.
  const serialized = (scrollbackRows: number): string => {
    const buffer = term.buffer.active;
    return `${serializer.serialize({ scrollback: scrollbackRows })}\x1b[${buffer.cursorY + 1};${buffer.cursorX + 1}H`;
  };
  return {
    write: (data, parsed) => term.write(data, parsed),
    resize: (cols, rows) => term.resize(cols, rows),
    renderedRows,
    lines,
    serialized,
    bracketedPaste: () => term.modes.bracketedPasteMode,
    modes: () => ({
      bracketedPaste: term.modes.bracketedPasteMode,
      alternate: term.buffer.active.type === 'alternate',
      cursorX: term.buffer.active.cursorX,
      cursorY: term.buffer.active.cursorY,
    }),
    onTitle(listener) {
      term.onTitleChange(listener);
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    frozen: () => ({
      rendered: Object.freeze(renderedRows()),
      ansi: flatCopy(serialized(0)),
      lines: Object.freeze(lines(EXITED_PANE_SNAPSHOT_LINES)),
      cols: term.cols,
      rows: term.rows,
      bracketedPaste: term.modes.bracketedPasteMode,
    }),
    dispose() {
      serializer.dispose();
      term.dispose();
    },
  };
}

/** A final screen known only as plain rows (an emulator that is gone): no scrollback, no colours. */
export function plainFrozen(
  rendered: readonly string[],
  cols: number,
  rows: number,
  bracketedPaste: boolean,
): FrozenScreen {
  return {
    rendered: Object.freeze([...rendered]),
    ansi: rendered.join('\r\n'),
    lines: Object.freeze([...rendered]),
    cols,
    rows,
    bracketedPaste,
  };
}

/** Why: a `slice` of a big string can keep the whole parent alive; a kept copy must not. */
export function flatCopy(text: string): string {
  return text.length === 0 ? '' : Buffer.from(text, 'utf16le').toString('utf16le');
}

/** Plain lines as `serialize` answers them: trailing empty lines dropped, CRLF-joined. */
export function joinLines(lines: readonly string[]): string {
  const kept = [...lines];
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.join('\r\n');
}

/**
 * The attach snapshot within `maxBytes`: the full text, else the viewport alone, else the newest
 * plain rows that fit (`truncatedByByteBudget`). Each source is computed only when needed.
 */
export function snapshotWithin(
  maxBytes: number,
  sources: { full: () => string; viewport: () => string; plain: () => string },
): ScreenSnapshot {
  const fits = (text: string): boolean => Buffer.byteLength(text) <= maxBytes;
  const full = sources.full();
  if (fits(full)) return { data: full };
  const viewport = sources.viewport();
  if (fits(viewport)) return { data: viewport };
  // Why: one budget holds for any screen; the newest plain rows are what a reader needs most.
  let plain = sources.plain();
  while (plain.length > 0 && !fits(plain)) plain = plain.slice(plain.indexOf('\n') + 1 || plain.length);
  return { data: plain, truncatedByByteBudget: true };
}
