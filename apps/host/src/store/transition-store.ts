import type { NotifyAttemptView as NotifyAttemptRecord } from '@orca/wire/contract';
import type Database from 'better-sqlite3';

/** A stored verdict transition: its explanation and the evidence it was decided on (JSON). */
export interface TransitionRecord {
  readonly id: number;
  readonly handle: string;
  readonly at: number;
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  /** `VerdictExplanation` as JSON text. */
  readonly explanation: string;
  /** `RecordedEvidence` as JSON text. */
  readonly recorded: string;
}

/** One notification delivery attempt: the contract's `notify.log` row. */
export type { NotifyAttemptView as NotifyAttemptRecord } from '@orca/wire/contract';

/** Transitions and notification attempts (migration 8). */
export interface TransitionStore {
  /**
   * Stores a transition and keeps the newest `keepPerPane` of its pane: queued with the hook rows
   * and verdicts of this turn and committed with them (see `Store.committed`).
   */
  insertTransition(t: Omit<TransitionRecord, 'id'>, keepPerPane: number): void;
  /** The newest `limit` transitions of `handle`, oldest first. */
  transitions(handle: string, limit: number): TransitionRecord[];
  insertNotifyAttempt(a: Omit<NotifyAttemptRecord, 'id'>, keep: number): void;
  /** The newest `limit` attempts, oldest first. */
  notifyAttempts(limit: number): NotifyAttemptRecord[];
}

interface TransitionRow {
  id: number;
  handle: string;
  at: number;
  from_status: string | null;
  to_status: string | null;
  explanation: string;
  recorded: string;
}

interface AttemptRow {
  id: number;
  event_id: string;
  handle: string | null;
  kind: string;
  sink: string;
  attempt: number;
  at: number;
  outcome: string;
  status: number | null;
  latency_ms: number | null;
  error: string | null;
}

/**
 * The transition and notification methods over an open database; `queue` defers a write to the
 * store's batch (committed once per event-loop turn).
 */
export function transitionStore(db: Database.Database, queue: (write: () => void) => void): TransitionStore {
  const stmt = {
    insert: db.prepare(
      `INSERT INTO verdict_transitions (handle, at, from_status, to_status, explanation, recorded)
       VALUES (@handle, @at, @fromStatus, @toStatus, @explanation, @recorded)`,
    ),
    // Why: one index seek to the newest row past the kept ones; `NOT IN (… LIMIT keep)` built a
    // set of every kept id on each insert (a thousand inserts a second in the stress bench).
    prune: db.prepare(
      `DELETE FROM verdict_transitions WHERE handle = ? AND id <= (
         SELECT id FROM verdict_transitions WHERE handle = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ),
    list: db.prepare('SELECT * FROM verdict_transitions WHERE handle = ? ORDER BY id DESC LIMIT ?'),
    insertAttempt: db.prepare(
      `INSERT INTO notify_attempts (event_id, handle, kind, sink, attempt, at, outcome, status, latency_ms, error)
       VALUES (@eventId, @handle, @kind, @sink, @attempt, @at, @outcome, @status, @latencyMs, @error)`,
    ),
    pruneAttempts: db.prepare('DELETE FROM notify_attempts WHERE id <= (SELECT max(id) FROM notify_attempts) - ?'),
    attempts: db.prepare('SELECT * FROM notify_attempts ORDER BY id DESC LIMIT ?'),
  };
  return {
    // Why: one transaction per transition was most of the host's time under a hook storm (1000
    // verdict changes/s in the stress bench); the turn's batch commits them together.
    insertTransition: (t, keep) =>
      queue(() => {
        stmt.insert.run(t);
        stmt.prune.run(t.handle, t.handle, keep);
      }),
    transitions: (handle, limit) =>
      (stmt.list.all(handle, limit) as TransitionRow[]).reverse().map((r) => ({
        id: r.id,
        handle: r.handle,
        at: r.at,
        fromStatus: r.from_status,
        toStatus: r.to_status,
        explanation: r.explanation,
        recorded: r.recorded,
      })),
    insertNotifyAttempt(a, keep) {
      stmt.insertAttempt.run(a);
      stmt.pruneAttempts.run(keep);
    },
    notifyAttempts: (limit) =>
      (stmt.attempts.all(limit) as AttemptRow[]).reverse().map((r) => ({
        id: r.id,
        eventId: r.event_id,
        handle: r.handle,
        kind: r.kind,
        sink: r.sink,
        attempt: r.attempt,
        at: r.at,
        outcome: r.outcome,
        status: r.status,
        latencyMs: r.latency_ms,
        error: r.error,
      })),
  };
}
