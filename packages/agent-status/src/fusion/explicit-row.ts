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
  const best = isStableRowList(rows) ? stableBest(rows, healDeniedOnScreen) : newestExplicit(rows, healDeniedOnScreen);
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

/** Per stable row list: the newest explicit row before the staleness check, without and with healing. */
const bestOfStable = new WeakMap<readonly StatusRow[], [StatusRow | undefined | null, StatusRow | undefined | null]>();

// Why: the choice depends on the rows and the healing flag only (time enters at the staleness
// check), so a list that cannot change is scanned once per flag, not at every evaluation.
function stableBest(rows: readonly StatusRow[], heal: boolean): StatusRow | undefined {
  let pair = bestOfStable.get(rows);
  if (pair === undefined) {
    pair = [null, null];
    bestOfStable.set(rows, pair);
  }
  const slot = heal ? 1 : 0;
  let best = pair[slot];
  if (best === null) {
    best = newestExplicit(rows, heal);
    pair[slot] = best;
  }
  return best;
}

function newestExplicit(rows: readonly StatusRow[], healDeniedOnScreen: boolean): StatusRow | undefined {
  // Why: one pass for the newest non-permission arrival makes the deny-healing test O(1) per row
  // (it was a scan of the list per dialog row).
  let newestOther = Number.NEGATIVE_INFINITY;
  for (const row of rows) if (!isPermissionRow(row) && row.receivedAt > newestOther) newestOther = row.receivedAt;
  const ignored = (row: StatusRow): boolean => isIgnoredByDenyHealing(row, newestOther, healDeniedOnScreen);
  let floor = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    if (ignored(row) && row.receivedAt > floor) floor = row.receivedAt;
  }
  let best: StatusRow | undefined;
  for (const row of rows) {
    if (row.receivedAt < floor) continue;
    if (ignored(row)) continue;
    if (
      !best ||
      row.receivedAt > best.receivedAt ||
      (row.receivedAt === best.receivedAt && (isPermissionRow(row) || !isPermissionRow(best)))
    ) {
      best = row;
    }
  }
  return best;
}

// Why: a Claude deny fires no hook, and an approval fires the next one only when the tool ends, so a
// PermissionRequest row would otherwise outlive its dialog.
function isIgnoredByDenyHealing(row: StatusRow, newestOther: number, healOnScreen: boolean): boolean {
  if (!isDialogRow(row)) return false;
  if (healOnScreen) return true;
  return newestOther > row.receivedAt;
}
