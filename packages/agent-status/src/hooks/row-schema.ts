import { z } from 'zod';
import { STATUS_AGENT_IDS } from '../agent-ids.ts';
import type { StatusRow } from '../types.ts';

const subagent = z.object({
  id: z.string(),
  state: z.enum(['working', 'blocked', 'waiting', 'idle']),
  startedAt: z.number().finite(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  description: z.string().optional(),
});

/** zod schema of a stored {@link StatusRow}; a row failing it is dropped, never thrown on. */
export const statusRowSchema = z.object({
  state: z.enum(['working', 'blocked', 'waiting', 'done']),
  receivedAt: z.number().finite(),
  stateStartedAt: z.number().finite(),
  source: z.enum(STATUS_AGENT_IDS),
  via: z.enum(['hook', 'osc']),
  interrupted: z.literal(true).optional(),
  toolUseId: z.string().optional(),
  dialog: z.literal(true).optional(),
  toolName: z.string().optional(),
  toolInput: z.string().optional(),
  prompt: z.string().optional(),
  lastAssistantMessage: z.string().optional(),
  interactivePrompt: z.string().optional(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  subagents: z.array(subagent).optional(),
});

/** A validated row, or null for anything malformed. */
export function parseStatusRow(value: unknown): StatusRow | null {
  const parsed = statusRowSchema.safeParse(value);
  if (!parsed.success) return null;
  const row: StatusRow = { ...parsed.data } as StatusRow;
  return row;
}

/** Frozen rows already validated, and what validation made of each (null: dropped). */
const validatedFrozen = new WeakMap<object, StatusRow | null>();

/** A row no one can change after it was validated: frozen, its subagents list and each entry too. */
function isDeepFrozenRow(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  const subagents = (value as { subagents?: unknown }).subagents;
  if (subagents === undefined) return true;
  return (
    Array.isArray(subagents) &&
    Object.isFrozen(subagents) &&
    subagents.every((s) => typeof s !== 'object' || s === null || Object.isFrozen(s))
  );
}

/**
 * Keep the valid rows of an untrusted list. A deep-frozen row (see {@link freezeStatusRow}) is
 * validated once and its result reused: a host evaluating a pane per hook event re-reads the
 * same kept rows each time.
 */
export function validRows(rows: readonly unknown[] | undefined): StatusRow[] {
  if (!Array.isArray(rows)) return [];
  const out: StatusRow[] = [];
  for (const r of rows) {
    let row: StatusRow | null | undefined;
    if (typeof r === 'object' && r !== null && isDeepFrozenRow(r)) {
      row = validatedFrozen.get(r);
      if (row === undefined) {
        row = parseStatusRow(r);
        validatedFrozen.set(r, row === null ? null : freezeStatusRow(row));
        row = validatedFrozen.get(r) ?? null;
      }
    } else {
      row = parseStatusRow(r);
    }
    if (row) out.push(row);
  }
  return out;
}

/** Freezes a row deeply (its subagents too), so {@link validRows} validates it only once. */
export function freezeStatusRow(row: StatusRow): StatusRow {
  if (row.subagents) {
    for (const s of row.subagents) Object.freeze(s);
    Object.freeze(row.subagents);
  }
  return Object.freeze(row);
}

/** Frozen row lists already validated: the valid rows of each, a frozen list of frozen rows. */
const validatedLists = new WeakMap<readonly unknown[], readonly StatusRow[]>();
/** The lists {@link validRowList} handed out from its cache: they and their rows never change. */
const stableLists = new WeakSet<readonly StatusRow[]>();

/**
 * {@link validRows} for the evaluator: a frozen list whose rows are all deep-frozen is validated
 * once and the same frozen result comes back for it (a host keeping its rows in a new frozen list
 * per change evaluates a pane many times per list). Any other list is validated afresh.
 */
export function validRowList(rows: readonly unknown[] | undefined): readonly StatusRow[] {
  if (!Array.isArray(rows) || !Object.isFrozen(rows)) return validRows(rows);
  const cached = validatedLists.get(rows);
  if (cached !== undefined) return cached;
  const valid = validRows(rows);
  // Why: only a list of deep-frozen rows can never change under the cache (a frozen list of open rows can).
  if (!rows.every((r) => typeof r === 'object' && r !== null && isDeepFrozenRow(r))) return valid;
  const stable = Object.freeze(valid);
  validatedLists.set(rows, stable);
  validatedLists.set(stable, stable);
  stableLists.add(stable);
  return stable;
}

/**
 * A list kept by appending: `list`'s newest rows (at most `max` with the new one) plus `row`,
 * validated once, as a stable list {@link validRowList} hands back unchanged. Only the new row is
 * validated (a stable `list` is not read again), so a pane receiving a hook event per few
 * milliseconds pays for one row, not its whole list. An invalid `row` is dropped.
 *
 * @example
 * let rows = appendStableRow([], { state: 'working', source: 'claude', via: 'hook', receivedAt: 1 }, 64);
 * validRowList(rows) === rows; // true
 */
export function appendStableRow(list: readonly unknown[], row: unknown, max: number): readonly StatusRow[] {
  const listed = validRowList(Object.isFrozen(list) ? list : Object.freeze([...list]));
  // Why: a stable list holds only deep-frozen rows that were validated; copies of open rows are frozen.
  const prior = isStableRowList(listed)
    ? listed
    : listed.map((r) => {
        const frozen = isDeepFrozenRow(r) ? r : freezeStatusRow({ ...r });
        validatedFrozen.set(frozen, frozen);
        return frozen;
      });
  const valid = typeof row === 'object' && row !== null ? validRows([row])[0] : undefined;
  if (valid === undefined) return prior === listed ? listed : registerStable(prior);
  const frozen = Object.isFrozen(valid) ? valid : freezeStatusRow(valid);
  validatedFrozen.set(frozen, frozen);
  const next = prior.length >= max ? prior.slice(prior.length - max + 1) : [...prior];
  next.push(frozen);
  const stable = registerStable(next);
  // Why: one step back only; a step kept on the prior list too would chain every list a pane ever
  // had (and each row's text) for the pane's life.
  appended.delete(prior);
  appended.set(stable, { prior, dropped: prior.length - (next.length - 1), added: frozen });
  return stable;
}

/** Freezes a list of validated deep-frozen rows and registers it as stable. */
function registerStable(rows: StatusRow[] | readonly StatusRow[]): readonly StatusRow[] {
  const stable = Object.isFrozen(rows) ? rows : Object.freeze(rows);
  validatedLists.set(stable, stable);
  stableLists.add(stable);
  return stable;
}

/** How a stable list was made by {@link appendStableRow}: its prior list, rows dropped from its front, the row added. */
export interface StableListStep {
  readonly prior: readonly StatusRow[];
  readonly dropped: number;
  readonly added: StatusRow;
}

const appended = new WeakMap<readonly StatusRow[], StableListStep>();

/** The step that made a stable list from another (for summaries kept up to date a row at a time). */
export function stableListStep(rows: readonly StatusRow[]): StableListStep | undefined {
  return appended.get(rows);
}

/** True for a list {@link validRowList} returned from its cache: neither it nor its rows can change. */
export function isStableRowList(rows: readonly StatusRow[]): boolean {
  return stableLists.has(rows);
}
