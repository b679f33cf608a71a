import { MATCH_WINDOW_CHARS, MATCH_WINDOW_LINES } from '../limits.ts';
import { stripAnsi } from './strip-ansi.ts';

/** One non-blank line of a match window. */
export interface WindowLine {
  /** Lowercased, ANSI stripped, edge box-drawing and whitespace trimmed. */
  text: string;
  /** Leading spaces/tabs before trimming, counted after any leading box-drawing characters. */
  indent: number;
  /** Offset of the line's start in its source (string tail: index into it). */
  offset: number;
}

/** The bottom of a pane, top→bottom, non-blank lines only. */
export interface MatchWindow {
  lines: readonly WindowLine[];
  /** Where the lines came from. */
  from: 'screen' | 'tail' | 'none';
}

const EDGE = /^[\s\u2500-\u257f]+|[\s\u2500-\u257f]+$/g;

/** Normalize one raw line (no newline inside); null when blank. */
export function normalizeLine(raw: string, offset: number): WindowLine | null {
  // Why: a lone CR returns the cursor to column 0 — what follows it is what the line shows now.
  const trimmed = raw.replace(/\r+$/, '');
  const cr = trimmed.lastIndexOf('\r');
  let line = cr >= 0 ? trimmed.slice(cr + 1) : trimmed;
  line = stripAnsi(line);
  const lead = /^[ \t]*/.exec(line.replace(/^[\u2500-\u257f]+/, ''));
  const text = line.replace(EDGE, '').toLowerCase();
  if (text === '') return null;
  return { text, indent: lead ? lead[0].length : 0, offset };
}

/**
 * Bottom window of a tail: read backwards from the end, at most `MATCH_WINDOW_LINES` non-blank
 * lines and `MATCH_WINDOW_CHARS` characters — never the whole tail.
 */
export function windowFromTail(tail: string | readonly string[]): MatchWindow {
  const pieces: { text: string; base: number }[] = [];
  if (typeof tail === 'string') {
    const base = Math.max(0, tail.length - MATCH_WINDOW_CHARS);
    pieces.push({ text: tail.slice(base), base });
  } else {
    let budget = MATCH_WINDOW_CHARS;
    let base = 0;
    for (const piece of tail) base += typeof piece === 'string' ? piece.length : 0;
    for (let i = tail.length - 1; i >= 0 && budget > 0; i--) {
      const piece = tail[i];
      if (typeof piece !== 'string') continue;
      base -= piece.length;
      const take = piece.length > budget ? piece.slice(piece.length - budget) : piece;
      pieces.unshift({ text: take, base: base + piece.length - take.length });
      budget -= take.length;
    }
  }
  const lines: WindowLine[] = [];
  for (let p = pieces.length - 1; p >= 0 && lines.length < MATCH_WINDOW_LINES; p--) {
    const piece = pieces[p];
    if (!piece) continue;
    let end = piece.text.length;
    while (lines.length < MATCH_WINDOW_LINES) {
      const nl = end > 0 ? piece.text.lastIndexOf('\n', end - 1) : -1;
      const line = normalizeLine(piece.text.slice(nl + 1, end), piece.base + nl + 1);
      if (line) lines.push(line);
      if (nl < 0) break;
      end = nl;
    }
  }
  lines.reverse();
  return { lines, from: 'tail' };
}

/** Window of rendered viewport rows (top→bottom), bounded like a tail. */
export function windowFromScreen(screen: readonly string[]): MatchWindow {
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
  return screen?.some((row) => typeof row === 'string' && stripAnsi(row).trim() !== '') ?? false;
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
