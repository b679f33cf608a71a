import { APPROVAL_MIN_CHOICES, APPROVAL_WINDOW_LINES } from '../limits.ts';
import type { WindowLine } from './match-window.ts';

const GLYPHS = '↵⇧↹⎋⏎';
// Why: a menu row ends in the key that picks it; prose ending in another parenthesis is not one.
const KEY_END = new RegExp(
  String.raw`(?:\((?:[a-z]|tab|shift\+tab|ctrl\+[a-z0-9]+|esc or n|enter|return|space)\)|(?<![${GLYPHS}]\s*)[${GLYPHS}](?:\s*[${GLYPHS}]){0,2})$`,
);
const MARKER = /run \(once\)|to allowlist\?|run everything|skip & tell the agent/;
const SELECTOR = /^(?:[→›>❯▶]\s*)?/;
const REVIEW_FOOTER = 'ctrl+r to review changed files';
const WRAP_MAX_CHARS = 40;

/** A line ends in a key name (`(y)`, `(esc or n)`, `↵`, …). */
export function endsInKeyName(text: string): boolean {
  return KEY_END.test(text);
}

function hasMarker(text: string): boolean {
  if (MARKER.test(text)) return true;
  const label = text.replace(KEY_END, '').replace(SELECTOR, '').trim();
  return label === 'skip';
}

/** Bottom `APPROVAL_WINDOW_LINES` lines of a window. */
export function approvalWindow(lines: readonly WindowLine[]): readonly WindowLine[] {
  return lines.slice(Math.max(0, lines.length - APPROVAL_WINDOW_LINES));
}

/** Line span (indices into the window) of a matched menu: its question and its last line. */
export interface MenuSpan {
  start: number;
  end: number;
}

/**
 * Cursor's `Run this command?` menu (§5.1): bottom ownership is the proof. Returns the menu's
 * line span, or null.
 */
export function matchCursorApproval(lines: readonly WindowLine[]): MenuSpan | null {
  const start = Math.max(0, lines.length - APPROVAL_WINDOW_LINES);
  let question = -1;
  for (let i = start; i < lines.length; i++) {
    if (lines[i]?.text.includes('run this command?')) question = i;
  }
  if (question < 0) return null;
  let choices = 0;
  let lastChoiceEnd = -1;
  for (let i = question + 1; i < lines.length; i++) {
    const text = lines[i]?.text ?? '';
    if (!hasMarker(text)) continue;
    if (endsInKeyName(text)) {
      choices++;
      lastChoiceEnd = i;
      continue;
    }
    const next = lines[i + 1]?.text;
    if (next !== undefined && !hasMarker(next) && next.length <= WRAP_MAX_CHARS && endsInKeyName(next)) {
      choices++;
      lastChoiceEnd = i + 1;
      i++;
    }
  }
  if (choices < APPROVAL_MIN_CHOICES) return null;
  const last = lines.length - 1;
  if (lastChoiceEnd === last) return { start: question, end: last };
  const tail = lines[last];
  if (lastChoiceEnd === last - 1 && tail && tail.text === REVIEW_FOOTER && tail.indent >= 2) {
    return { start: question, end: last };
  }
  return null;
}

const ROW = /^(?:[❯›>]\s*)?(\d+)\.\s*(.*)$/;
const NOT_A_WRAP = /^[⏺●✻✽*$#>›❯]/;

/**
 * Claude Code's numbered permission menu (§5.2). Returns the menu's line span, or null.
 */
export function matchClaudePermissionMenu(lines: readonly WindowLine[]): MenuSpan | null {
  const start = Math.max(0, lines.length - APPROVAL_WINDOW_LINES);
  for (let q = lines.length - 2; q >= start; q--) {
    const head = lines[q];
    if (!head?.text.startsWith('do you want to')) continue;
    let rowStart = q + 1;
    if (!head.text.endsWith('?')) {
      // Why: a narrow pane wraps the question once (`… make this edit to` / `file.ts?`).
      const wrap = lines[q + 1];
      if (!wrap?.text.endsWith('?') || ROW.test(wrap.text)) continue;
      rowStart = q + 2;
    }
    return rowsFrom(lines, rowStart) ? { start: q, end: lines.length - 1 } : null;
  }
  return null;
}

function rowsFrom(lines: readonly WindowLine[], from: number): boolean {
  const rows: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i];
    if (!line) return false;
    const m = ROW.exec(line.text);
    if (m) {
      if (Number(m[1]) !== rows.length + 1) return false;
      rows.push(m[2] ?? '');
      continue;
    }
    // Unnumbered line: a wrap of the previous row, indented, not narration.
    if (rows.length === 0 || line.indent < 2 || NOT_A_WRAP.test(line.text)) return false;
  }
  if (rows.length < 2) return false;
  if (!rows[0]?.startsWith('yes') || !rows[rows.length - 1]?.startsWith('no')) return false;
  return true;
}
