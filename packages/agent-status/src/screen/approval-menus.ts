import { APPROVAL_MIN_CHOICES, APPROVAL_WINDOW_LINES } from '../limits.ts';
import type { MenuSpan, WindowLine } from './match-window.ts';

export type { MenuSpan } from './match-window.ts';

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

/**
 * Claude Code's numbered permission menu (§5.2), now with its key-hint footer allowed below the
 * rows (the real 2.1.x dialogs end in `Esc to cancel · Tab to amend`).
 *
 * @deprecated Use {@link matchApprovalMenu}, which this is.
 */
export { matchApprovalMenu as matchClaudePermissionMenu } from './selection-menus.ts';

/** Droid's approval footer: `↑↓ navigate   Enter select   Esc cancel   …` (0.225.2, agents lab). */
const DROID_FOOTER = /^↑↓ navigate\s+enter select\s+esc cancel\b/;
const DROID_YES = /^yes, allow\b/;
const DROID_NO = /^no, cancel\b/;

/**
 * Droid's tool approval (0.225.2, agents lab): rows in a box, the first `Yes, allow`, the last `No, cancel`
 * (a long row may wrap between them), directly above its `↑↓ navigate   Enter select   Esc cancel`
 * footer, which ends the window (its hints may wrap onto one more line). The selected row is shown
 * by colour only, so the rows carry no cursor glyph.
 */
export function matchDroidApproval(lines: readonly WindowLine[]): MenuSpan | null {
  const last = lines.length - 1;
  const footer = [last, last - 1].find((i) => DROID_FOOTER.test(lines[i]?.text ?? ''));
  if (footer === undefined || !DROID_NO.test(lines[footer - 1]?.text ?? '')) return null;
  for (let i = footer - 2; i >= Math.max(0, last - APPROVAL_WINDOW_LINES); i--) {
    if (DROID_YES.test(lines[i]?.text ?? '')) return { start: i, end: last };
  }
  return null;
}
