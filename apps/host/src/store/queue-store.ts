import type Database from 'better-sqlite3';

/** The states of a queued prompt; `queued` and `delivering` are pending, the others final. */
export const QUEUE_STATES = ['queued', 'delivering', 'submitted', 'failed', 'cancelled', 'expired'] as const;
/** One of {@link QUEUE_STATES}. */
export type QueueState = (typeof QUEUE_STATES)[number];
/** The states an item can still leave. */
export const PENDING_QUEUE_STATES: readonly QueueState[] = ['queued', 'delivering'];

/** A queued prompt as stored. */
export interface QueueItemRecord {
  readonly id: number;
  readonly handle: string;
  /** Order among the pane's items (ascending); only pending items are reordered. */
  readonly position: number;
  readonly prompt: string;
  readonly state: QueueState;
  /** Who queued it: `cli`, `rpc`, `web`. */
  readonly source: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
  /** When its text started to be written (the pane held), or null. */
  readonly deliveringAt: number | null;
  /** The dispatch receipt of a submitted item. */
  readonly receipt: Record<string, unknown> | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
}

/** A change of state, with what the new state carries. */
export interface QueueItemUpdate {
  readonly state: QueueState;
  readonly at: number;
  readonly receipt?: Record<string, unknown>;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The store's prompt-queue table (see `apps/host/src/panes/prompt-queue.ts` for the rules). */
export interface QueueStore {
  /** Appends a queued item at the end of the pane's queue; returns it. */
  insertQueueItem(item: {
    handle: string;
    prompt: string;
    source: string;
    createdAt: number;
    expiresAt: number | null;
  }): QueueItemRecord;
  getQueueItem(id: number): QueueItemRecord | null;
  /** A pane's items (every pane's without `handle`): pending ones in queue order, then the finished, newest first. */
  listQueueItems(handle?: string): QueueItemRecord[];
  /** Every pending item of every pane, in queue order per pane. */
  pendingQueueItems(): QueueItemRecord[];
  countPendingQueueItems(handle: string): number;
  /**
   * Moves an item to a new state, only from one of `from` (false: it was not in one, nothing changed).
   * `delivering` stamps `deliveringAt`.
   */
  updateQueueItem(id: number, update: QueueItemUpdate, from: readonly QueueState[]): boolean;
  /** Sets the order of a pane's pending items to `ids` (all of them, in the new order). */
  reorderQueue(handle: string, ids: readonly number[]): void;
  /** Drops a pane's finished items beyond the `keep` that finished last; returns how many went. */
  pruneFinishedQueueItems(handle: string, keep: number): number;
}

interface QueueRow {
  id: number;
  handle: string;
  position: number;
  prompt: string;
  state: QueueState;
  source: string;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  delivering_at: number | null;
  receipt: string | null;
  error_code: string | null;
  error_message: string | null;
}

function toQueueItem(r: QueueRow): QueueItemRecord {
  return {
    id: r.id,
    handle: r.handle,
    position: r.position,
    prompt: r.prompt,
    state: r.state,
    source: r.source,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    expiresAt: r.expires_at,
    deliveringAt: r.delivering_at,
    receipt: r.receipt === null ? null : (JSON.parse(r.receipt) as Record<string, unknown>),
    errorCode: r.error_code,
    errorMessage: r.error_message,
  };
}

const PENDING = "state IN ('queued', 'delivering')";
const ORDER = `CASE WHEN ${PENDING} THEN 0 ELSE 1 END, CASE WHEN ${PENDING} THEN position ELSE -id END`;

/** The queue methods over an open database (migration 5). */
export function queueStore(db: Database.Database): QueueStore {
  const stmt = {
    insert: db.prepare(
      `INSERT INTO prompt_queue (handle, position, prompt, state, source, created_at, updated_at, expires_at)
       VALUES (@handle, (SELECT coalesce(max(position), 0) + 1 FROM prompt_queue WHERE handle = @handle),
               @prompt, 'queued', @source, @createdAt, @createdAt, @expiresAt)`,
    ),
    get: db.prepare('SELECT * FROM prompt_queue WHERE id = ?'),
    listPane: db.prepare(`SELECT * FROM prompt_queue WHERE handle = ? ORDER BY ${ORDER}`),
    listAll: db.prepare(`SELECT * FROM prompt_queue ORDER BY handle, ${ORDER}`),
    pending: db.prepare(`SELECT * FROM prompt_queue WHERE ${PENDING} ORDER BY handle, position`),
    countPending: db.prepare(`SELECT COUNT(*) AS n FROM prompt_queue WHERE handle = ? AND ${PENDING}`),
    update: db.prepare(
      `UPDATE prompt_queue SET state = @state, updated_at = @at,
         delivering_at = CASE WHEN @state = 'delivering' THEN @at ELSE delivering_at END,
         receipt = coalesce(@receipt, receipt), error_code = coalesce(@errorCode, error_code),
         error_message = coalesce(@errorMessage, error_message)
       WHERE id = @id AND state IN (SELECT value FROM json_each(@from))`,
    ),
    setPosition: db.prepare(`UPDATE prompt_queue SET position = ? WHERE id = ? AND handle = ? AND ${PENDING}`),
    prune: db.prepare(
      `DELETE FROM prompt_queue WHERE handle = ? AND NOT ${PENDING} AND id NOT IN (
         SELECT id FROM prompt_queue WHERE handle = ? AND NOT ${PENDING} ORDER BY updated_at DESC, id DESC LIMIT ?)`,
    ),
  };
  return {
    insertQueueItem(item) {
      const info = stmt.insert.run({
        handle: item.handle,
        prompt: item.prompt,
        source: item.source,
        createdAt: item.createdAt,
        expiresAt: item.expiresAt,
      });
      return toQueueItem(stmt.get.get(info.lastInsertRowid) as QueueRow);
    },
    getQueueItem(id) {
      const r = stmt.get.get(id) as QueueRow | undefined;
      return r ? toQueueItem(r) : null;
    },
    listQueueItems: (handle) =>
      ((handle === undefined ? stmt.listAll.all() : stmt.listPane.all(handle)) as QueueRow[]).map(toQueueItem),
    pendingQueueItems: () => (stmt.pending.all() as QueueRow[]).map(toQueueItem),
    countPendingQueueItems: (handle) => (stmt.countPending.get(handle) as { n: number }).n,
    updateQueueItem(id, update, from) {
      return (
        stmt.update.run({
          id,
          state: update.state,
          at: update.at,
          receipt: update.receipt ? JSON.stringify(update.receipt) : null,
          errorCode: update.error?.code ?? null,
          errorMessage: update.error?.message ?? null,
          from: JSON.stringify(from),
        }).changes > 0
      );
    },
    reorderQueue(handle, ids) {
      db.transaction(() => {
        for (const [i, id] of ids.entries()) stmt.setPosition.run(i + 1, id, handle);
      })();
    },
    pruneFinishedQueueItems: (handle, keep) => stmt.prune.run(handle, handle, keep).changes,
  };
}
