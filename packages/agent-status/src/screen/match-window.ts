import { LINE_MEMO_ENTRIES, MATCH_WINDOW_CHARS, MATCH_WINDOW_LINES } from '../limits.ts';
import { stripAnsi } from './strip-ansi.ts';

/** One non-blank line of a match window. */
export interface WindowLine {
  /** Lowercased, ANSI stripped, edge box-drawing and whitespace trimmed. */
  text: string;
  /** Leading spaces/tabs before trimming, counted after any leading box-drawing characters. */
  indent: number;
  /**
   * Offset of the line's start in its source: string tail → index into it; array tail → negative
   * distance from the tail's end; screen → row index.
   */
  offset: number;
}

/** Line span (indices into the window) of a matched menu: its question and its last line. */
export interface MenuSpan {
  start: number;
  end: number;
}

/** The bottom of a pane, top→bottom, non-blank lines only. */
export interface MatchWindow {
  lines: readonly WindowLine[];
  /** Where the lines came from. */
  from: 'screen' | 'tail' | 'none';
}

const NEEDS_STRIP = /[\x00-\x08\x0a-\x1f\x7f]/;

function isBox(c: number): boolean {
  return c >= 0x2500 && c <= 0x257f;
}

/** Block elements (U+2580–U+259F): `█`, `▐`, `░`, … */
function isBlock(c: number): boolean {
  return c >= 0x2580 && c <= 0x259f;
}

function isSpace(c: number): boolean {
  return (
    c === 0x20 || c === 0x09 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a) || c === 0x0b || c === 0x0c
  );
}

type NormalizedText = { text: string; indent: number } | null;
// Why: polls re-read the same bottom lines many times; the memo is bounded and only caches a pure
// function of the raw line, so results are identical with or without it.
const lineMemo = new Map<string, NormalizedText>();

/** Normalize one raw line (no newline inside); null when blank. */
export function normalizeLine(raw: string, offset: number): WindowLine | null {
  let hit = lineMemo.get(raw);
  if (hit === undefined) {
    hit = normalizeText(raw);
    if (lineMemo.size >= LINE_MEMO_ENTRIES) lineMemo.clear();
    lineMemo.set(raw, hit);
  }
  return hit === null ? null : { text: hit.text, indent: hit.indent, offset };
}

function normalizeText(raw: string): NormalizedText {
  let end = raw.length;
  while (end > 0 && raw.charCodeAt(end - 1) === 0x0d) end--;
  // Why: a lone CR returns the cursor to column 0 — what follows it is what the line shows now.
  const cr = raw.lastIndexOf('\r', end - 1);
  let line = raw.slice(cr >= 0 && cr < end ? cr + 1 : 0, end);
  if (NEEDS_STRIP.test(line)) line = stripAnsi(line);
  // Hand-written trims: an anchored `[…]+$` regex is quadratic on space-padded terminal rows.
  let from = 0;
  while (from < line.length && isBox(line.charCodeAt(from))) from++;
  let lead = from;
  while (lead < line.length && (line.charCodeAt(lead) === 0x20 || line.charCodeAt(lead) === 0x09)) lead++;
  let start = from;
  while (start < line.length) {
    const c = line.charCodeAt(start);
    if (!isBox(c) && !isSpace(c)) break;
    start++;
  }
  let stop = line.length;
  while (stop > start) {
    const c = line.charCodeAt(stop - 1);
    // Why: a block glyph at the right edge after a gap is a scrollbar thumb (Qwen Code 0.24.4 draws
    // `█` in the last column while it repaints) or a drawn cursor, never part of the text.
    const edgeBlock = isBlock(c) && stop >= 2 && isSpace(line.charCodeAt(stop - 2));
    if (!isBox(c) && !isSpace(c) && !edgeBlock) break;
    stop--;
  }
  if (stop <= start) return null;
  return { text: line.slice(start, stop).toLowerCase(), indent: lead - from };
}

/**
 * Bottom window of a tail: read backwards from the end, at most `MATCH_WINDOW_LINES` non-blank
 * lines and `MATCH_WINDOW_CHARS` characters — never the whole tail.
 */
export function windowFromTail(tail: string | readonly string[]): MatchWindow {
  const lines: WindowLine[] = [];
  if (typeof tail === 'string') {
    const base = Math.max(0, tail.length - MATCH_WINDOW_CHARS);
    // Why: search the bounded slice only — a backwards search on the whole tail could run through
    // megabytes of one long line before the bound.
    const text = base > 0 ? tail.slice(base) : tail;
    collectBottomUp(lines, text, base);
  } else {
    // Why: array tails are read from the end only (flat cost under any scrollback), so their
    // offsets are negative distances from the tail's end — still increasing downwards.
    let budget = MATCH_WINDOW_CHARS;
    let end = 0;
    for (let i = tail.length - 1; i >= 0 && budget > 0; i--) {
      const piece = tail[i];
      const text = typeof piece === 'string' ? piece : '';
      const take = text.length > budget ? text.slice(text.length - budget) : text;
      end -= take.length + 1;
      budget -= take.length + 1; // the element boundary is a line break
      if (collectBottomUp(lines, take, end)) break;
    }
  }
  lines.reverse();
  return { lines, from: 'tail' };
}

/**
 * Push the normalized non-blank lines of `text` bottom-up; true once the window is full.
 * `base + i` is the reported offset of a line starting at index `i` of `text`.
 */
function collectBottomUp(lines: WindowLine[], text: string, base: number): boolean {
  let end = text.length;
  for (;;) {
    const nl = end > 0 ? text.lastIndexOf('\n', end - 1) : -1;
    const line = normalizeLine(text.slice(nl + 1, end), base + nl + 1);
    if (line) {
      lines.push(line);
      if (lines.length >= MATCH_WINDOW_LINES) return true;
    }
    if (nl < 0) return false;
    end = nl;
  }
}

/** Windows of frozen screens already built: a host hands the same frozen mirror to every reader until it changes. */
const windowOfFrozenScreen = new WeakMap<readonly string[], MatchWindow>();

/**
 * Window of rendered viewport rows (top→bottom), bounded like a tail. A frozen `screen` (a host's
 * settled mirror) is read once: the same frozen window comes back for it; treat windows as read-only.
 */
export function windowFromScreen(screen: readonly string[]): MatchWindow {
  if (!Object.isFrozen(screen)) return readScreen(screen);
  let window = windowOfFrozenScreen.get(screen);
  if (window === undefined) {
    const built = readScreen(screen);
    for (const line of built.lines) Object.freeze(line);
    window = Object.freeze({ lines: Object.freeze(built.lines) as WindowLine[], from: built.from });
    windowOfFrozenScreen.set(screen, window);
    sharedWindows.add(window);
  }
  return window;
}

/** The windows {@link windowFromScreen} built from frozen screens: deep-frozen, shared by every reader. */
const sharedWindows = new WeakSet<MatchWindow>();

/** True for a window {@link windowFromScreen} built once for a frozen screen (it and its lines never change). */
export function isSharedWindow(window: MatchWindow): boolean {
  return sharedWindows.has(window);
}

function readScreen(screen: readonly string[]): MatchWindow {
  const lines: WindowLine[] = [];
  let chars = 0;
  for (let i = screen.length - 1; i >= 0 && lines.length < MATCH_WINDOW_LINES; i--) {
    const row = screen[i];
    if (typeof row !== 'string') continue;
    chars += row.length;
    if (chars > MATCH_WINDOW_CHARS) break;
    const line = normalizeLine(row.replace(/\n/g, ' '), i);
    if (line) lines.push(line);
  }
  lines.reverse();
  return { lines, from: 'screen' };
}

/** Does a rendered screen hold any non-blank row? */
export function screenHasContent(screen: readonly string[] | undefined): boolean {
  return screen?.some((row) => typeof row === 'string' && normalizeLine(row, 0) !== null) ?? false;
}

/**
 * The window the matchers read: the screen when it has a non-blank row (an erased dialog is gone),
 * else the tail.
 */
export function buildMatchWindow(evidence: {
  screen?: readonly string[] | undefined;
  tail?: string | readonly string[] | undefined;
}): MatchWindow {
  if (evidence.screen && screenHasContent(evidence.screen)) return windowFromScreen(evidence.screen);
  if (evidence.tail !== undefined) return windowFromTail(evidence.tail);
  return { lines: [], from: 'none' };
}
