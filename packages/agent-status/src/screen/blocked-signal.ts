import { type BlockedReason, reasonKind } from '../blocked-reasons.ts';
import { KEYWORD_AFTER_CHARS, KEYWORD_BEFORE_CHARS, PERMISSION_CHOICES_WITHIN_CHARS } from '../limits.ts';
import { matchCursorApproval, matchDroidApproval } from './approval-menus.ts';
import { codexCancelBelow, findReadyPromptBelow } from './dismissal.ts';
import { isSharedWindow, type MatchWindow, type WindowLine, windowFromTail } from './match-window.ts';
import { matchApprovalMenu, matchSelectionMenu } from './selection-menus.ts';

/** A prompt only a human can answer, found on the pane. */
export interface BlockedSignal {
  reason: BlockedReason;
  kind: 'approval' | 'modal';
  /** The anchor line's normalized text. */
  line: string;
  /** Index of the anchor line in the window. */
  index: number;
  /** Offset of the anchor line in its source (tail string index, or screen row). */
  offset: number;
  /** Offset of the first line of the prompt (its head or question) in its source. */
  startOffset: number;
}

/** Fast negative: every rule needs one of these (exported for the classify bench's floor). */
export const SENTINEL =
  /update available|working directory|just got an upgrade|hooks need review|trust|press enter|press t to|enter [a-z ]{1,24}· esc|permission|run this command|do you want to|would you like to|allow execution|apply this change|esc to cancel|enter select|\?\n/;
const PRESS_ENTER =
  /press enter to (?:confirm|continue|view|insert)|press t to trust|enter (?:to )?[a-z]+ · esc (?:to )?[a-z]+/g;
const GENERIC_CONTEXT = /codex|permission|sandbox|trust|hook/;
const TRUST = /do you trust|trust this|trusted workspace/g;
const TRUST_OBJECT = /workspace|folder|directory|repo/;
const PERMISSION_HEAD = /permission required|requires permission/g;
const PERMISSION_CHOICE = /allow once|allow always|reject|deny/g;

interface Candidate {
  reason: BlockedReason;
  index: number;
  start: number; // first line of the prompt
  rank: number; // tie-break on the same line: higher wins
  from: number; // joined-text span the rule used
  to: number;
}

interface Joined {
  text: string;
  starts: number[];
}

function join(lines: readonly WindowLine[]): Joined {
  const starts: number[] = [];
  let text = '';
  for (const line of lines) {
    starts.push(text.length);
    text += `${line.text}\n`;
  }
  return { text, starts };
}

function lineAt(j: Joined, pos: number): number {
  let lo = 0;
  let hi = j.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((j.starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function lastLine(lines: readonly WindowLine[], test: (t: string) => boolean, from = 0): number {
  for (let i = lines.length - 1; i >= from; i--) if (test(lines[i]?.text ?? '')) return i;
  return -1;
}

function lastMatch(re: RegExp, text: string, from = 0, to = text.length): { at: number; end: number } | null {
  re.lastIndex = from;
  let found: { at: number; end: number } | null = null;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    found = { at: m.index, end: m.index + m[0].length };
    if (m[0].length === 0) re.lastIndex++;
  }
  return found;
}

function updateFooter(t: string): boolean {
  return t.includes('press enter to continue') || t.includes('enter continue · esc skip');
}

function pressEnterLine(t: string): boolean {
  PRESS_ENTER.lastIndex = 0;
  return PRESS_ENTER.test(t);
}

// Why: Codex 0.171.0's hooks-review modal ends in `enter confirm · esc skip` (agents lab).
function confirmFooter(t: string): boolean {
  return t.includes('press enter to confirm') || /(?:^|· )enter (?:to )?confirm · esc\b/.test(t);
}

// A `head` line then a later (or the same) line passing `tail`: one candidate, pushed to `out`.
function pairedCandidate(
  out: Candidate[],
  lines: readonly WindowLine[],
  j: Joined,
  head: string,
  tail: (t: string) => boolean,
  reason: BlockedReason,
): void {
  if (!j.text.includes(head)) return;
  let h = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if ((lines[i]?.text ?? '').includes(head)) {
      h = i;
      break;
    }
  }
  if (h < 0) return;
  const e = lastLine(lines, tail, h);
  if (e >= 0) out.push({ reason, index: e, start: h, rank: 2, from: j.starts[h] ?? 0, to: (j.starts[e] ?? 0) + 1 });
}

function specificCandidates(lines: readonly WindowLine[], j: Joined): Candidate[] {
  const out: Candidate[] = [];
  pairedCandidate(out, lines, j, 'update available', updateFooter, 'codex-update-prompt');
  pairedCandidate(out, lines, j, 'choose working directory to', pressEnterLine, 'codex-cwd-prompt');
  pairedCandidate(out, lines, j, 'codex just got an upgrade', pressEnterLine, 'codex-model-migration-prompt');
  pairedCandidate(out, lines, j, 'hooks need review', confirmFooter, 'codex-hooks-review-prompt');
  const trust = j.text.includes('trust') ? lastMatch(TRUST, j.text) : null;
  if (trust) {
    const rest = j.text.slice(trust.end, trust.end + KEYWORD_AFTER_CHARS);
    const obj = TRUST_OBJECT.exec(rest);
    if (obj) {
      const at = trust.end + obj.index;
      out.push({
        reason: 'agent-trust-workspace',
        index: lineAt(j, at),
        start: lineAt(j, trust.at),
        rank: 2,
        from: trust.at,
        to: at,
      });
    }
  }
  return out;
}

function permissionCandidate(j: Joined): Candidate | null {
  if (!j.text.includes('permission')) return null;
  const head = lastMatch(PERMISSION_HEAD, j.text);
  if (!head) return null;
  const limit = head.end + PERMISSION_CHOICES_WITHIN_CHARS;
  const seen = new Set<string>();
  let lastAt = head.at;
  PERMISSION_CHOICE.lastIndex = head.end;
  for (let m = PERMISSION_CHOICE.exec(j.text); m && m.index < limit; m = PERMISSION_CHOICE.exec(j.text)) {
    seen.add(m[0]);
    lastAt = m.index;
  }
  if (seen.size < 2) return null;
  return {
    reason: 'codex-interactive-prompt',
    index: lineAt(j, lastAt),
    start: lineAt(j, head.at),
    rank: 1,
    from: head.at,
    to: lastAt,
  };
}

function genericCandidate(j: Joined, specific: readonly Candidate[]): Candidate | null {
  if (!j.text.includes('enter')) return null;
  const phrase = lastMatch(PRESS_ENTER, j.text);
  if (!phrase) return null;
  const from = Math.max(0, phrase.at - KEYWORD_BEFORE_CHARS);
  const to = Math.min(j.text.length, phrase.end + KEYWORD_AFTER_CHARS);
  const span = j.text.slice(from, to);
  if (!GENERIC_CONTEXT.test(span)) return null;
  if (specific.some((c) => c.to >= from && c.from <= to)) return null;
  const reason: BlockedReason = span.includes('codex') ? 'codex-interactive-prompt' : 'agent-interactive-prompt';
  return { reason, index: lineAt(j, phrase.at), start: lineAt(j, phrase.at), rank: 0, from: phrase.at, to: phrase.end };
}

function toWindow(input: MatchWindow | string | readonly string[]): MatchWindow {
  if (typeof input === 'string' || Array.isArray(input)) return windowFromTail(input as string | readonly string[]);
  return input as MatchWindow;
}

/**
 * The prompt only a human can answer at the bottom of a pane (§5), or null. Latest line wins;
 * a modal prompt with a live prompt below it is dismissed. Never throws on odd text.
 *
 * @example
 * findBlockedSignal('Update available!\nPress enter to continue');
 * // { reason: 'codex-update-prompt', kind: 'modal', line: 'press enter to continue', index: 1, offset: 18 }
 */
export function findBlockedSignal(input: MatchWindow | string | readonly string[]): BlockedSignal | null {
  // Why: a frozen window (a frozen screen's, see windowFromScreen) is read by the host's wait stamp
  // and by every evaluation until the screen changes; its signal is found once.
  if (typeof input === 'object' && !Array.isArray(input) && isSharedWindow(input as MatchWindow)) {
    const window = input as MatchWindow;
    let hit = signalOfFrozenWindow.get(window);
    if (hit === undefined) {
      hit = findSignal(window);
      signalOfFrozenWindow.set(window, hit);
    }
    return hit === null ? null : { ...hit };
  }
  return findSignal(input);
}

const signalOfFrozenWindow = new WeakMap<MatchWindow, BlockedSignal | null>();

function findSignal(input: MatchWindow | string | readonly string[]): BlockedSignal | null {
  const { lines } = toWindow(input);
  if (lines.length === 0) return null;
  const j = join(lines);
  if (!SENTINEL.test(j.text)) return null;

  const candidates = specificCandidates(lines, j);
  const permission = permissionCandidate(j);
  const generic = genericCandidate(j, candidates);
  if (permission) candidates.push(permission);
  if (generic) candidates.push(generic);
  const menus = [
    j.text.includes('run this command?') ? matchCursorApproval(lines) : null,
    j.text.includes('?\n') ? matchApprovalMenu(lines) : null,
    j.text.includes('enter select') ? matchDroidApproval(lines) : null,
  ];
  let approval = false;
  for (const menu of menus) {
    if (menu) {
      approval = true;
      candidates.push({ reason: 'agent-approval-prompt', index: menu.end, start: menu.start, rank: 3, from: 0, to: 0 });
    }
  }
  const selection = approval || !j.text.includes('?\n') ? null : matchSelectionMenu(lines);
  if (selection) {
    const from = j.starts[selection.start] ?? 0;
    const to = (j.starts[selection.end] ?? 0) + 1;
    // Why: a menu a specific rule names (trust, update, hooks review) keeps that rule's reason.
    const named = candidates.some((c) => c.rank === 2 && c.to >= from && c.from <= to);
    if (!named) {
      candidates.push({
        reason: 'agent-interactive-prompt',
        index: selection.end,
        start: selection.start,
        rank: 1,
        from,
        to,
      });
    }
  }

  let best: Candidate | null = null;
  for (const c of candidates) {
    if (!best || c.index > best.index || (c.index === best.index && c.rank > best.rank)) best = c;
  }
  if (!best) return null;
  const kind = reasonKind(best.reason);
  if (kind === 'modal' && isDismissed(lines, best)) return null;
  const anchor = lines[best.index];
  if (!anchor) return null;
  const head = lines[best.start] ?? anchor;
  return {
    reason: best.reason,
    kind,
    line: anchor.text,
    index: best.index,
    offset: anchor.offset,
    startOffset: head.offset,
  };
}

function isDismissed(lines: readonly WindowLine[], signal: Candidate): boolean {
  if (findReadyPromptBelow(lines, signal.index)) return true;
  const anchor = lines[signal.index]?.text ?? '';
  return (
    signal.reason === 'codex-interactive-prompt' &&
    anchor.includes('press enter to confirm or esc to cancel') &&
    codexCancelBelow(lines, signal.index)
  );
}
