import { isStableRowList, stableListStep } from '../hooks/row-schema.ts';
import { AGENT_STATUS_STALE_AFTER_MS, PERMISSION_DIALOG_DRAW_GRACE_MS } from '../limits.ts';
import type { StatusRow } from '../types.ts';

/** A row that asks a human (`blocked`/`waiting`). */
export function isPermissionRow(row: StatusRow): boolean {
  return row.state === 'blocked' || row.state === 'waiting';
}

/**
 * The explicit row (§7): newest row not ignored by deny healing and not stale; on a tie a
 * permission row wins, then the later in input order. Rows older than an ignored row never count.
 */
export function pickExplicitRow(
  rows: readonly StatusRow[],
  now: number,
  healDeniedOnScreen: boolean,
): StatusRow | undefined {
  const best = explicitOf(
    isStableRowList(rows) ? stableState(rows, healDeniedOnScreen) : scanState(rows, healDeniedOnScreen),
  );
  if (!best || now - best.receivedAt > AGENT_STATUS_STALE_AFTER_MS) return undefined;
  return best;
}

/**
 * The arrival of the newest row a dialog could still be drawn for: a `waiting` row deny healing
 * applies to (a tool id or `dialog: true`) with no later non-permission row. Null when none.
 */
export function pendingDialogRowAt(rows: readonly StatusRow[]): number | null {
  const { dialog, other } = isStableRowList(rows) ? stableDialogSummary(rows) : dialogSummary(rows);
  return dialog !== null && dialog >= other ? dialog : null;
}

/** The newest arrival of a dialog row (null: none) and of any other non-permission row. */
interface DialogSummary {
  readonly dialog: number | null;
  readonly other: number;
}

const summaryOfStable = new WeakMap<readonly StatusRow[], DialogSummary>();

/**
 * The summary of a stable list, kept per list; a list made by appending one row to a summarised
 * list is summarised from that one row, unless a dropped row held one of the newest arrivals.
 */
function stableDialogSummary(rows: readonly StatusRow[]): DialogSummary {
  let summary = summaryOfStable.get(rows);
  if (summary !== undefined) return summary;
  const step = stableListStep(rows);
  const prior = step && summaryOfStable.get(step.prior);
  if (step && prior && !dropsNewest(step.prior, step.dropped, prior)) summary = withRow(prior, step.added);
  else summary = dialogSummary(rows);
  summaryOfStable.set(rows, summary);
  return summary;
}

function dropsNewest(prior: readonly StatusRow[], dropped: number, s: DialogSummary): boolean {
  for (let i = 0; i < dropped; i++) {
    const row = prior[i];
    if (row && (row.receivedAt === s.dialog || row.receivedAt === s.other)) return true;
  }
  return false;
}

function withRow(s: DialogSummary, row: StatusRow): DialogSummary {
  if (isDialogRow(row))
    return { dialog: s.dialog === null ? row.receivedAt : Math.max(s.dialog, row.receivedAt), other: s.other };
  if (!isPermissionRow(row)) return { dialog: s.dialog, other: Math.max(s.other, row.receivedAt) };
  return s;
}

function dialogSummary(rows: readonly StatusRow[]): DialogSummary {
  let dialog: number | null = null;
  let other = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    if (isDialogRow(row)) dialog = dialog === null ? row.receivedAt : Math.max(dialog, row.receivedAt);
    else if (!isPermissionRow(row)) other = Math.max(other, row.receivedAt);
  }
  return { dialog, other };
}

function isDialogRow(row: StatusRow): boolean {
  return row.state === 'waiting' && (row.toolUseId !== undefined || row.dialog === true);
}

/**
 * When a dialog row stops holding without its dialog on screen (arrival + the draw grace), or
 * null for any other row: a host evaluates the pane again then, so a dialog denied within the
 * grace heals on a quiet screen.
 */
export function dialogDrawGraceEndsAt(row: StatusRow): number | null {
  return isDialogRow(row) ? row.receivedAt + PERMISSION_DIALOG_DRAW_GRACE_MS : null;
}

/**
 * What the explicit-row choice rests on, for one list and one healing flag: the newest
 * non-permission arrival, the newest arrival of an ignored row (`floor`: rows older never count)
 * and the newest row not ignored (ties as {@link beats} says).
 */
interface ExplicitState {
  readonly newestOther: number;
  readonly floor: number;
  readonly best: StatusRow | undefined;
}

/** `row`, later in input order than `best`, replaces it: newer, or as new and a permission row or over a non-permission one. */
function beats(row: StatusRow, best: StatusRow | undefined): boolean {
  return (
    best === undefined ||
    row.receivedAt > best.receivedAt ||
    (row.receivedAt === best.receivedAt && (isPermissionRow(row) || !isPermissionRow(best)))
  );
}

function scanState(rows: readonly StatusRow[], heal: boolean): ExplicitState {
  // Why: one pass for the newest non-permission arrival makes the deny-healing test O(1) per row.
  let newestOther = Number.NEGATIVE_INFINITY;
  for (const row of rows) if (!isPermissionRow(row) && row.receivedAt > newestOther) newestOther = row.receivedAt;
  let floor = Number.NEGATIVE_INFINITY;
  let best: StatusRow | undefined;
  for (const row of rows) {
    if (isIgnoredByDenyHealing(row, newestOther, heal)) {
      if (row.receivedAt > floor) floor = row.receivedAt;
    } else if (beats(row, best)) best = row;
  }
  return { newestOther, floor, best };
}

/**
 * The state after appending `row`. Why it holds: appending only raises `newestOther`, so the
 * ignored set only grows; a best row newly ignored is a dialog row older than `row`, which is not
 * ignored and beats it. Without healing the floor never excludes the best (a non-permission row at
 * `newestOther` is not ignored and is newer than every ignored row), so it is not tracked.
 */
function appendState(s: ExplicitState, row: StatusRow, heal: boolean): ExplicitState {
  const newestOther = !isPermissionRow(row) && row.receivedAt > s.newestOther ? row.receivedAt : s.newestOther;
  if (isIgnoredByDenyHealing(row, newestOther, heal)) {
    return { newestOther, floor: heal && row.receivedAt > s.floor ? row.receivedAt : s.floor, best: s.best };
  }
  return { newestOther, floor: s.floor, best: beats(row, s.best) ? row : s.best };
}

/** Dropping these rows from the front changes no part of `s` (none of them is its best or holds a newest arrival). */
function dropKeeps(prior: readonly StatusRow[], dropped: number, s: ExplicitState): boolean {
  for (let i = 0; i < dropped; i++) {
    const row = prior[i];
    if (row === undefined) continue;
    if (row === s.best || row.receivedAt === s.newestOther || row.receivedAt === s.floor) return false;
  }
  return true;
}

/** Per stable row list: the explicit state without and with healing (absent until asked). */
const stateOfStable = new WeakMap<readonly StatusRow[], [ExplicitState | undefined, ExplicitState | undefined]>();

// Why: the choice depends on the rows and the healing flag only (time enters at the staleness
// check). A list that cannot change is judged once per flag, and a list one append away from a
// judged list is judged from that one row (a scan per hook event was a tenth of a busy host's loop).
function stableState(rows: readonly StatusRow[], heal: boolean): ExplicitState {
  const slot = heal ? 1 : 0;
  let pair = stateOfStable.get(rows);
  const kept = pair?.[slot];
  if (kept !== undefined) return kept;
  const step = stableListStep(rows);
  const prior = step && stateOfStable.get(step.prior)?.[slot];
  const state =
    step && prior && dropKeeps(step.prior, step.dropped, prior)
      ? appendState(prior, step.added, heal)
      : scanState(rows, heal);
  if (pair === undefined) {
    pair = [undefined, undefined];
    stateOfStable.set(rows, pair);
  }
  pair[slot] = state;
  return state;
}

function explicitOf(state: ExplicitState): StatusRow | undefined {
  return state.best !== undefined && state.best.receivedAt >= state.floor ? state.best : undefined;
}

// Why: a Claude deny fires no hook, and an approval fires the next one only when the tool ends, so a
// PermissionRequest row would otherwise outlive its dialog.
function isIgnoredByDenyHealing(row: StatusRow, newestOther: number, healOnScreen: boolean): boolean {
  if (!isDialogRow(row)) return false;
  if (healOnScreen) return true;
  return newestOther > row.receivedAt;
}
