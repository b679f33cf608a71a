import { APPROVAL_QUESTION_WINDOW_LINES, MENU_FOOTER_LINES } from '../limits.ts';
import type { MenuSpan, WindowLine } from './match-window.ts';

/**
 * Menus drawn by real agent TUIs (seen in the agents lab on Claude Code 2.1.197 and 2.1.332,
 * Codex 0.171.0, Gemini CLI 0.61.0): a question, choice rows with a selection cursor, and
 * optionally a key-hint footer under them.
 */

/** Glyphs a TUI draws in front of the selected choice (`❯` Claude, `›` Codex, `●` Gemini). */
const CURSOR = /^[❯›>●▶→]\s*/;
const NUMBERED = /^(?:[❯›>●▶→]\s*)?(\d{1,2})[.)]\s+(\S.*)$/;
/** A key-hint footer under a menu (`Esc to cancel · Tab to amend`, `Press enter to confirm or esc to cancel`). */
const FOOTER =
  /(?:^|· )esc (?:to )?(?:cancel|go back|back|close|exit|skip)\b|enter (?:to )?(?:confirm|select|continue)\b|press enter\b|^enter [a-z]+ · esc\b|(?:^|· )tab to amend\b|ctrl\+[a-z] to explain\b/;
/** Questions of approval menus: what a tool wants to do, asked of the human. */
const APPROVAL_QUESTION =
  /^(?:do you want to|would you like to|allow execution of|apply this change|allow [\w .-]{1,40} to )/;
/** Rows that approve and deny. */
const YES_ROW = /^(?:yes|allow|approve|proceed)\b/;
const NO_ROW = /^no\b/;
/** Lines that are narration, not a wrapped choice (bullets, prompts, tool marks). */
const NOT_A_WRAP = /^[⏺●✻✽*$#>›❯⎿•■✗✓]/;

/** A selection cursor in front of the line's text. */
export function hasSelectionCursor(text: string): boolean {
  return CURSOR.test(text) && text.replace(CURSOR, '').length > 0;
}

/** A key-hint footer line. */
export function isMenuFooter(text: string): boolean {
  return FOOTER.test(text);
}

/** Index of the first line at or after `from` below which only footer lines follow. */
function bottomAfterFooters(lines: readonly WindowLine[]): number {
  let end = lines.length - 1;
  let footers = 0;
  while (end >= 0 && footers < MENU_FOOTER_LINES && isMenuFooter(lines[end]?.text ?? '')) {
    end--;
    footers++;
  }
  return end;
}

interface NumberedRows {
  first: number;
  last: number;
  labels: string[];
  cursor: boolean;
}

/** The numbered rows (1., 2., …; wraps allowed) ending exactly at line `end`, read upwards. */
function numberedRowsEndingAt(lines: readonly WindowLine[], end: number, floor: number): NumberedRows | null {
  const rows: { index: number; n: number; label: string; cursor: boolean }[] = [];
  for (let i = end; i >= floor; i--) {
    const line = lines[i];
    if (!line) break;
    const m = NUMBERED.exec(line.text);
    if (m) {
      rows.unshift({ index: i, n: Number(m[1]), label: m[2] ?? '', cursor: CURSOR.test(line.text) });
      if (Number(m[1]) === 1) break;
      continue;
    }
    // Why: a long choice wraps onto an indented line of its own; anything else ends the block.
    if (line.indent < 2 || NOT_A_WRAP.test(line.text) || isMenuFooter(line.text)) return null;
  }
  if (rows.length < 2) return null;
  for (let k = 0; k < rows.length; k++) if (rows[k]?.n !== k + 1) return null;
  return {
    first: rows[0]?.index ?? 0,
    last: rows[rows.length - 1]?.index ?? 0,
    labels: rows.map((r) => r.label),
    cursor: rows.some((r) => r.cursor),
  };
}

/**
 * An approval menu (Claude's permission dialog, Codex's approval, Gemini's confirmation): a
 * question (`Do you want to proceed?`, `Would you like to run the following command?`, `Allow
 * execution of [Shell]?`, `Apply this change?`; wrapped once at most) within
 * `APPROVAL_QUESTION_WINDOW_LINES`, then numbered rows whose first approves and last starts with
 * `no`, at the bottom of the window save at most `MENU_FOOTER_LINES` key-hint footers.
 */
export function matchApprovalMenu(lines: readonly WindowLine[]): MenuSpan | null {
  const end = bottomAfterFooters(lines);
  if (end < 1) return null;
  const floor = Math.max(0, lines.length - APPROVAL_QUESTION_WINDOW_LINES);
  const rows = numberedRowsEndingAt(lines, end, floor);
  if (!rows) return null;
  if (!YES_ROW.test(rows.labels[0] ?? '') || !NO_ROW.test(rows.labels[rows.labels.length - 1] ?? '')) return null;
  for (let q = rows.first - 1; q >= floor; q--) {
    const text = lines[q]?.text ?? '';
    if (!APPROVAL_QUESTION.test(text)) continue;
    const ends = text.endsWith('?') || (lines[q + 1]?.text.endsWith('?') ?? false);
    if (ends) return { start: q, end: lines.length - 1 };
  }
  return null;
}

/** Status and hint lines under a composer (`⏸ manual mode on · ? for shortcuts`): never a choice. */
const STATUS_LINE = / · |for shortcuts|esc to |shift\+tab|ctrl\+/;
/** Narration: an agent's own message (bullet first), not a question the TUI asks. */
const NARRATION = /^[⏺●•✦✻✽*>›❯⎿-]\s/;

/**
 * Any selection menu a human must answer (an API-key or login question, a mode picker): a
 * question — a line ending in `?`, not the agent's own bulleted narration — at most four lines
 * above ≥ 2 choices, one of which carries the selection cursor: numbered rows, or unnumbered
 * rows aligned with the cursor row's text that are not status lines. The choices end the window,
 * or only key-hint footers follow them.
 */
export function matchSelectionMenu(lines: readonly WindowLine[]): MenuSpan | null {
  const last = lines.length - 1;
  const end = bottomAfterFooters(lines);
  if (end < 1) return null;
  const floor = Math.max(0, lines.length - APPROVAL_QUESTION_WINDOW_LINES);
  let first: number;
  const numbered = numberedRowsEndingAt(lines, end, floor);
  if (numbered) {
    if (!numbered.cursor) return null;
    first = numbered.first;
  } else {
    const block = alignedChoicesEndingAt(lines, end, floor);
    if (block === null) return null;
    first = block;
  }
  for (let q = first - 1; q >= floor && q >= first - 4; q--) {
    const text = lines[q]?.text ?? '';
    if (text.endsWith('?') && !NARRATION.test(text)) return { start: q, end: last };
  }
  return null;
}

/** First index of ≥ 2 unnumbered choices ending at `end` with exactly one cursor row, others aligned to its text. */
function alignedChoicesEndingAt(lines: readonly WindowLine[], end: number, floor: number): number | null {
  let cursorAt = -1;
  for (let i = end; i >= floor && i >= end - 6; i--) {
    if (hasSelectionCursor(lines[i]?.text ?? '')) {
      cursorAt = i;
      break;
    }
  }
  if (cursorAt < 0) return null;
  const cursorLine = lines[cursorAt];
  if (!cursorLine || STATUS_LINE.test(cursorLine.text)) return null;
  const glyph = CURSOR.exec(cursorLine.text)?.[0].length ?? 0;
  const column = cursorLine.indent + glyph;
  const aligned = (i: number) => {
    const l = lines[i];
    return (
      l !== undefined &&
      i !== cursorAt &&
      l.indent === column &&
      !hasSelectionCursor(l.text) &&
      !STATUS_LINE.test(l.text)
    );
  };
  let first = cursorAt;
  while (first - 1 >= floor && aligned(first - 1)) first--;
  for (let i = cursorAt + 1; i <= end; i++) if (!aligned(i)) return null;
  return end - first + 1 >= 2 ? first : null;
}

/** What makes the bottom of a screen menu-shaped (for the send guard's fail-closed rule). */
export interface MenuShape {
  kind: 'numbered-choices' | 'question' | 'footer';
  line: string;
}

/**
 * Fail-closed check of the send guard: is the bottom of the window shaped like a menu, named by a
 * rule or not? Numbered choices with a selection cursor in the bottom `APPROVAL_QUESTION_WINDOW_LINES`
 * lines, a `do you want to …?` / `would you like to …?` question there, or a cancel/confirm footer
 * as one of the last `MENU_FOOTER_LINES` lines. False refusals are the price (a composer draft that
 * is itself a numbered list typed after a `❯`; a footer some TUI keeps under its idle prompt).
 */
export function findMenuShape(lines: readonly WindowLine[]): MenuShape | null {
  if (lines.length === 0) return null;
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - MENU_FOOTER_LINES; i--) {
    const text = lines[i]?.text ?? '';
    if (isMenuFooter(text)) return { kind: 'footer', line: text };
  }
  const floor = Math.max(0, lines.length - APPROVAL_QUESTION_WINDOW_LINES);
  for (let i = lines.length - 1; i >= floor; i--) {
    const text = lines[i]?.text ?? '';
    const m = NUMBERED.exec(text);
    if (m && CURSOR.test(text)) {
      const rows = numberedRowsAround(lines, i, floor);
      if (rows >= 2) return { kind: 'numbered-choices', line: text };
    }
    if (/^(?:do you want to|would you like to)\b/.test(text) && text.endsWith('?'))
      return { kind: 'question', line: text };
  }
  return null;
}

function numberedRowsAround(lines: readonly WindowLine[], at: number, floor: number): number {
  let count = 0;
  for (let i = Math.max(floor, at - 8); i < lines.length && i <= at + 8; i++) {
    if (NUMBERED.test(lines[i]?.text ?? '')) count++;
  }
  return count;
}
