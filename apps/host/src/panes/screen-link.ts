import type { ScreenBackend } from './screen.ts';
import {
  type FrozenScreen,
  joinLines,
  plainFrozen,
  type ScreenModes,
  type ScreenSnapshot,
  snapshotWithin,
} from './screen-emulator.ts';

/** A write or a resize sent to the worker and not yet reported parsed (a resize carries no data). */
export type PendingInput = { readonly data: string; readonly at: number } | null;

/**
 * The host-thread side of one pane in a screen worker: its counters, the mirror of its screen as
 * of the last `state`, the input the worker has not reported parsed, and what waits for it.
 */
export interface PaneLink {
  readonly id: number;
  cols: number;
  rows: number;
  readonly scrollback: number;
  readonly now: () => number;
  /** Inputs (writes and resizes) sent; the n-th is seq n. */
  written: number;
  /** Inputs the worker reported parsed. */
  parsed: number;
  /** Highest input count a `sync` was sent for. */
  asked: number;
  /** A `sync` went out and no `state` for this pane came back since. */
  syncOutstanding: boolean;
  waiters: { upTo: number; resolve: () => void }[];
  /** Inputs `parsed + 1 … written`, kept to rebuild the screen on a new worker. */
  pending: PendingInput[];
  /** UTF-16 units of data in {@link pending}: the worker's backlog for this pane. */
  pendingChars: number;
  /** The PTY was asked to pause until the worker catches up. */
  paused: boolean;
  flow: (pause: boolean) => void;
  /** The rows of the last settle, frozen: readers get this very array until the next settle. */
  mirrorRows: readonly string[];
  modes: ScreenModes;
  title: (text: string, at: number) => void;
  /** The emulator in this thread that took over once the pane's worker was retired. */
  fallback: ScreenBackend | null;
}

/** A new link for a pane of `cols` × `rows`. */
export function newPaneLink(
  id: number,
  o: { cols: number; rows: number; scrollback: number; now: () => number },
): PaneLink {
  return {
    id,
    cols: o.cols,
    rows: o.rows,
    scrollback: o.scrollback,
    now: o.now,
    written: 0,
    parsed: 0,
    asked: 0,
    syncOutstanding: false,
    waiters: [],
    pending: [],
    pendingChars: 0,
    paused: false,
    flow: () => undefined,
    mirrorRows: Object.freeze(Array.from({ length: o.rows }, () => '')),
    modes: { bracketedPaste: false, alternate: false, cursorX: 0, cursorY: 0 },
    title: () => undefined,
    fallback: null,
  };
}

/** Records input `n` as parsed: drops what the worker no longer needs kept. */
export function acknowledge(link: PaneLink, parsed: number): void {
  while (link.parsed < parsed) {
    link.parsed += 1;
    const input = link.pending.shift();
    if (input) link.pendingChars -= input.data.length;
  }
}

/**
 * What rebuilds the pane's screen on a new emulator: the mirror (plain rows, cursor, modes) as of
 * the last `state`, then every input the lost worker had not reported parsed, in order.
 */
export function rebuildInputs(link: PaneLink): { data: string; at: number }[] {
  const m = link.modes;
  const base = [
    m.alternate ? '\x1b[?1049h' : '',
    '\x1b[H\x1b[2J',
    link.mirrorRows.join('\r\n'),
    `\x1b[${m.cursorY + 1};${m.cursorX + 1}H`,
    m.bracketedPaste ? '\x1b[?2004h' : '',
  ].join('');
  const rest = link.pending.filter((p): p is { data: string; at: number } => p !== null);
  return [{ data: base, at: link.now() }, ...rest];
}

/** Resolves the waiters whose input is parsed. */
export function settleWaiters(link: PaneLink): void {
  if (link.waiters.length === 0) return;
  const ready = link.waiters.filter((w) => w.upTo <= link.parsed);
  if (ready.length === 0) return;
  link.waiters = link.waiters.filter((w) => w.upTo > link.parsed);
  for (const w of ready) w.resolve();
}

/** Answers from the mirror when the worker cannot (stopped, dead, or too slow): plain rows only. */
export const fromMirror = {
  snapshot(link: PaneLink, maxBytes: number): ScreenSnapshot {
    const plain = joinLines(link.mirrorRows);
    return snapshotWithin(maxBytes, { full: () => plain, viewport: () => plain, plain: () => plain });
  },
  // Why: the frozen mirror itself, so the engine reads one screen once until it changes.
  rows: (link: PaneLink): readonly string[] => link.mirrorRows,
  lines: (link: PaneLink, maxRows: number): string[] =>
    link.mirrorRows.slice(Math.max(0, link.mirrorRows.length - maxRows)),
  frozen: (link: PaneLink): FrozenScreen =>
    plainFrozen(link.mirrorRows, link.cols, link.rows, link.modes.bracketedPaste),
};
