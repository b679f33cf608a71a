import type Database from 'better-sqlite3';

/**
 * Writes deferred to the end of the event-loop turn and committed together in one transaction.
 * Why: under a hook storm every row was its own transaction (a WAL commit each); one commit per
 * turn costs a fraction of that and keeps the order of the writes.
 */
export interface WriteBatch {
  /** Queues `write`; the first write of a turn schedules the commit. */
  add(write: () => void): void;
  /** Resolves once every write queued so far is committed; rejects when their commit failed. */
  committed(): Promise<void>;
  /** Commits the queued writes now (reads and direct writes call this first). Never throws. */
  flush(): void;
  /** Writes queued and not yet committed. */
  readonly pending: number;
}

/** Options of {@link createWriteBatch}. */
export interface WriteBatchOptions {
  /** A failed commit (its writes are dropped; each waiter of {@link WriteBatch.committed} is told too). */
  onError(error: unknown): void;
  /** Runs the commit later in this turn (default `setImmediate`). */
  schedule?: (run: () => void) => void;
}

interface Turn {
  readonly writes: (() => void)[];
  readonly done: Promise<void>;
  settle(error?: unknown): void;
}

function newTurn(): Turn {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Why: a commit nobody awaits (verdict writes) must not become an unhandled rejection.
  done.catch(() => undefined);
  return { writes: [], done, settle: (error) => (error === undefined ? resolve() : reject(error)) };
}

/**
 * Creates the write batch of one database connection.
 *
 * @example
 * const batch = createWriteBatch(db, { onError: (e) => log.error(e) });
 * batch.add(() => insert.run(row));
 * await batch.committed(); // the row is in the WAL
 */
export function createWriteBatch(db: Database.Database, options: WriteBatchOptions): WriteBatch {
  const schedule = options.schedule ?? ((run: () => void) => setImmediate(run));
  let turn: Turn | null = null;
  const commitAll = db.transaction((writes: readonly (() => void)[]) => {
    for (const write of writes) write();
  });
  const flush = (): void => {
    const current = turn;
    if (current === null) return;
    turn = null;
    try {
      commitAll(current.writes);
      current.settle();
    } catch (error) {
      current.settle(error);
      options.onError(error);
    }
  };
  return {
    add(write) {
      if (turn === null) {
        turn = newTurn();
        schedule(flush);
      }
      turn.writes.push(write);
    },
    committed: () => (turn === null ? Promise.resolve() : turn.done),
    flush,
    get pending() {
      return turn?.writes.length ?? 0;
    },
  };
}
