import Database from 'better-sqlite3';
import { STORE_WAL_SIZE_LIMIT_BYTES } from '../constants.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { type QueueStore, queueStore } from './queue-store.ts';
import {
  type GuestRecord,
  type HookRowRecord,
  type HookRowRow,
  type PaneRecord,
  type PaneRow,
  parseGuestOptions,
  toHookRow,
  toPane,
  toVerdict,
  type VerdictRecord,
  type VerdictRow,
} from './records.ts';
import { compactStore, type GcReport, hookRowRetention } from './retention.ts';
import { storeError, storeFileBytes, tightenStoreFiles, withStoreErrors } from './store-files.ts';
import { type TransitionStore, transitionStore } from './transition-store.ts';
import { type WebSessionStore, webSessionStore } from './web-session-store.ts';
import { createWriteBatch } from './write-batch.ts';

export type { QueueItemRecord, QueueItemUpdate, QueueState } from './queue-store.ts';
export type {
  GuestOptionsRecord,
  GuestRecord,
  HookRowRecord,
  PaneLaunch,
  PaneRecord,
  StoredAgentWait,
  VerdictRecord,
} from './records.ts';
export type { GcReport } from './retention.ts';
export type { NotifyAttemptRecord, TransitionRecord } from './transition-store.ts';
export type { WebSessionRecord } from './web-session-store.ts';

/**
 * The host's SQLite store (better-sqlite3, WAL). Synchronous by design: one writer, the host.
 * Hook rows, verdicts and verdict transitions are written behind: queued and committed together
 * once per event-loop turn ({@link Store.committed}); every other call commits them first, so reads
 * see every write.
 */
export interface Store extends QueueStore, WebSessionStore, TransitionStore {
  readonly path: string;
  schemaVersion(): number;
  insertPane(
    pane: Omit<PaneRecord, 'exitedAt' | 'exitCode' | 'exitSignal' | 'exitCause' | 'title' | 'sessionId' | 'resumedAs'>,
  ): void;
  /** Records the agent's session id of a pane (from its hooks). */
  setPaneSession(handle: string, sessionId: string): void;
  /** Records that `resumedAs` resumed the session of `handle`. */
  setPaneResumedAs(handle: string, resumedAs: string): void;
  setPaneTitle(handle: string, title: string): void;
  setPaneAgent(handle: string, agent: string): void;
  markPaneExited(handle: string, exit: { at: number; code: number | null; signal: number | null; cause: string }): void;
  markLivePanesExited(cause: string, at: number): number;
  getPane(handle: string): PaneRecord | null;
  listPanes(): PaneRecord[];
  /** Queues a hook row; it is committed by the end of this turn (see {@link Store.committed}). */
  insertHookRow(row: Omit<HookRowRecord, 'id'>): void;
  hookRows(paneKey: string): HookRowRecord[];
  lastHookRow(paneKey: string): HookRowRecord | null;
  countHookRows(): number;
  /** True when a stored pane has this pane key (live, or exited and still listed). */
  hasPaneKey(paneKey: string): boolean;
  /**
   * Compaction: drops expired hook rows, rows of unknown panes and rows over the per-pane caps,
   * then frees the pages (`full`: a `VACUUM`) and truncates the WAL.
   */
  gc(opts: { now: number; full?: boolean }): GcReport;
  /** Queues a verdict, committed with the hook rows of this turn. */
  insertVerdict(verdict: VerdictRecord): void;
  /** Resolves once every row and verdict queued so far is committed (rejects if that commit failed). */
  committed(): Promise<void>;
  latestVerdict(handle: string): VerdictRecord | null;
  verdicts(handle: string): VerdictRecord[];
  upsertGuest(guest: GuestRecord): void;
  deleteGuest(kind: string, name: string): boolean;
  /** Forgets a pane: its record, verdicts, hook rows, command-hook runs and queued prompts (one transaction). */
  deletePane(handle: string): boolean;
  listGuests(): GuestRecord[];
  insertCommandHookRun(run: { handle: string | null; event: string; at: number; record: unknown }): void;
  countCommandHookRuns(): number;
  close(): void;
}

/** Applies every migration newer than the database's `user_version`, each in one transaction. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  let current = db.pragma('user_version', { simple: true }) as number;
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    current = m.version;
  }
  return current;
}

/** Options of {@link openStore}. */
export interface StoreOptions {
  /** A commit of queued rows failed (disk full, file made read-only): its rows are lost; default ignore. */
  readonly onWriteError?: (error: unknown) => void;
}

/**
 * Opens (creating if needed) the store at `path`, in WAL mode, and runs the numbered migrations.
 *
 * @example
 * const store = openStore('/tmp/orca/orca.sqlite');
 * store.listPanes();
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  let db: Database.Database;
  try {
    tightenStoreFiles(path);
    db = new Database(path);
    // Why: only a new, empty database can take auto_vacuum without a VACUUM; compaction frees pages with it.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 2000');
    db.pragma(`journal_size_limit = ${STORE_WAL_SIZE_LIMIT_BYTES}`);
    const version = migrate(db);
    // Why: a read-only file opens fine and fails at the first write; find out now, naming the file.
    db.pragma(`user_version = ${version}`);
    tightenStoreFiles(path);
  } catch (cause) {
    throw storeError(path, cause, 'open');
  }
  const retention = hookRowRetention(db);
  const stmt = {
    insertPane: db.prepare(
      `INSERT INTO panes (handle, pane_key, tab_id, name, cwd, argv, guest, agent, created_at, launch)
       VALUES (@handle, @paneKey, @tabId, @name, @cwd, @argv, @guest, @agent, @createdAt, @launch)`,
    ),
    setSession: db.prepare('UPDATE panes SET session_id = ? WHERE handle = ?'),
    setResumedAs: db.prepare('UPDATE panes SET resumed_as = ? WHERE handle = ?'),
    setTitle: db.prepare('UPDATE panes SET title = ? WHERE handle = ?'),
    setAgent: db.prepare('UPDATE panes SET agent = ? WHERE handle = ?'),
    exited: db.prepare(
      'UPDATE panes SET exited_at = ?, exit_code = ?, exit_signal = ?, exit_cause = ? WHERE handle = ? AND exited_at IS NULL',
    ),
    allExited: db.prepare('UPDATE panes SET exited_at = ?, exit_cause = ? WHERE exited_at IS NULL'),
    getPane: db.prepare('SELECT * FROM panes WHERE handle = ?'),
    listPanes: db.prepare('SELECT * FROM panes ORDER BY created_at, handle'),
    insertHook: db.prepare(
      `INSERT INTO hook_rows (pane_key, connection_id, source, hook_event_name, received_at, envelope, row, size_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    hookRows: db.prepare('SELECT * FROM hook_rows WHERE pane_key = ? ORDER BY id'),
    lastHookRow: db.prepare('SELECT * FROM hook_rows WHERE pane_key = ? ORDER BY id DESC LIMIT 1'),
    countHooks: db.prepare('SELECT COUNT(*) AS n FROM hook_rows'),
    hasPaneKey: db.prepare('SELECT 1 FROM panes WHERE pane_key = ?'),
    insertVerdict: db.prepare(
      `INSERT INTO verdicts (handle, at, status, is_running_agent, agent_wait_kind, agent_wait)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    latestVerdict: db.prepare('SELECT * FROM verdicts WHERE handle = ? ORDER BY id DESC LIMIT 1'),
    verdicts: db.prepare('SELECT * FROM verdicts WHERE handle = ? ORDER BY id'),
    upsertGuest: db.prepare(
      `INSERT INTO guests (kind, name, target, created_at, options) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (kind, name) DO UPDATE SET target = excluded.target, options = excluded.options`,
    ),
    deleteGuest: db.prepare('DELETE FROM guests WHERE kind = ? AND name = ?'),
    deletePaneHooks: db.prepare(
      'DELETE FROM hook_rows WHERE pane_key IN (SELECT pane_key FROM panes WHERE handle = ?)',
    ),
    deletePaneVerdicts: db.prepare('DELETE FROM verdicts WHERE handle = ?'),
    deletePaneRuns: db.prepare('DELETE FROM command_hook_runs WHERE handle = ?'),
    deletePaneQueue: db.prepare('DELETE FROM prompt_queue WHERE handle = ?'),
    deletePaneTransitions: db.prepare('DELETE FROM verdict_transitions WHERE handle = ?'),
    deletePane: db.prepare('DELETE FROM panes WHERE handle = ?'),
    listGuests: db.prepare('SELECT * FROM guests ORDER BY kind, name'),
    insertRun: db.prepare('INSERT INTO command_hook_runs (handle, event, at, record) VALUES (?, ?, ?, ?)'),
    countRuns: db.prepare('SELECT COUNT(*) AS n FROM command_hook_runs'),
  };
  const batch = createWriteBatch(db, {
    onError: (error) => {
      // Why: the rolled-back rows were already counted; the tallies are read again from the table.
      retention.reset();
      options.onWriteError?.(storeError(path, error));
    },
  });
  // Why: a closed store refuses at the call, as before the batch, not later at its commit.
  const queue = (write: () => void): void => {
    if (!db.open) throw new TypeError('The database connection is not open');
    batch.add(write);
  };
  const methods: Store = {
    ...queueStore(db),
    ...webSessionStore(db),
    ...transitionStore(db, queue),
    path,
    schemaVersion: () => db.pragma('user_version', { simple: true }) as number,
    insertPane(p) {
      stmt.insertPane.run({
        handle: p.handle,
        paneKey: p.paneKey,
        tabId: p.tabId,
        name: p.name,
        cwd: p.cwd,
        argv: JSON.stringify(p.argv),
        guest: p.guest,
        agent: p.agent,
        createdAt: p.createdAt,
        launch: p.launch ? JSON.stringify(p.launch) : null,
      });
    },
    setPaneSession(handle, sessionId) {
      stmt.setSession.run(sessionId, handle);
    },
    setPaneResumedAs(handle, resumedAs) {
      stmt.setResumedAs.run(resumedAs, handle);
    },
    setPaneTitle(handle, title) {
      stmt.setTitle.run(title, handle);
    },
    setPaneAgent(handle, agent) {
      stmt.setAgent.run(agent, handle);
    },
    markPaneExited(handle, exit) {
      stmt.exited.run(exit.at, exit.code, exit.signal, exit.cause, handle);
    },
    markLivePanesExited(cause, at) {
      return stmt.allExited.run(at, cause).changes;
    },
    getPane(handle) {
      const r = stmt.getPane.get(handle) as PaneRow | undefined;
      return r ? toPane(r) : null;
    },
    listPanes: () => (stmt.listPanes.all() as PaneRow[]).map(toPane),
    insertHookRow(r) {
      const envelope = JSON.stringify(r.envelope);
      const row = r.row === null ? null : JSON.stringify(r.row);
      const bytes = Buffer.byteLength(envelope) + (row === null ? 0 : Buffer.byteLength(row));
      const values = [r.paneKey, r.connectionId, r.source, r.hookEventName, r.receivedAt, envelope, row, bytes];
      queue(() => {
        stmt.insertHook.run(...values);
        retention.inserted(r.paneKey, bytes);
      });
    },
    hasPaneKey: (paneKey) => stmt.hasPaneKey.get(paneKey) !== undefined,
    gc: (o) => compactStore(db, retention, { ...o, fileBytes: () => storeFileBytes(path) }),
    hookRows: (paneKey) => (stmt.hookRows.all(paneKey) as HookRowRow[]).map(toHookRow),
    lastHookRow(paneKey) {
      const r = stmt.lastHookRow.get(paneKey) as HookRowRow | undefined;
      return r ? toHookRow(r) : null;
    },
    countHookRows: () => (stmt.countHooks.get() as { n: number }).n,
    insertVerdict(v) {
      const values = [
        v.handle,
        v.at,
        v.status,
        v.isRunningAgent ? 1 : 0,
        v.agentWait.kind,
        v.agentWait.kind === 'value' ? JSON.stringify(v.agentWait.value) : null,
      ];
      queue(() => stmt.insertVerdict.run(...values));
    },
    committed: () =>
      batch.committed().catch((error: unknown) => {
        throw storeError(path, error);
      }),
    latestVerdict(handle) {
      const r = stmt.latestVerdict.get(handle) as VerdictRow | undefined;
      return r ? toVerdict(r) : null;
    },
    verdicts: (handle) => (stmt.verdicts.all(handle) as VerdictRow[]).map(toVerdict),
    upsertGuest(g) {
      stmt.upsertGuest.run(g.kind, g.name, g.target, g.createdAt, JSON.stringify(g.options ?? {}));
    },
    deleteGuest: (kind, name) => stmt.deleteGuest.run(kind, name).changes > 0,
    deletePane: (handle) =>
      db.transaction(() => {
        stmt.deletePaneHooks.run(handle);
        stmt.deletePaneVerdicts.run(handle);
        stmt.deletePaneRuns.run(handle);
        stmt.deletePaneQueue.run(handle);
        stmt.deletePaneTransitions.run(handle);
        return stmt.deletePane.run(handle).changes > 0;
      })(),
    listGuests: () =>
      (
        stmt.listGuests.all() as { kind: string; name: string; target: string; created_at: number; options: string }[]
      ).map((r) => ({
        kind: r.kind,
        name: r.name,
        target: r.target,
        createdAt: r.created_at,
        options: parseGuestOptions(r.options),
      })),
    insertCommandHookRun(run) {
      stmt.insertRun.run(run.handle, run.event, run.at, JSON.stringify(run.record));
    },
    countCommandHookRuns: () => (stmt.countRuns.get() as { n: number }).n,
    close() {
      if (!db.open) return;
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    },
  };
  return withStoreErrors<Store>(path, commitQueuedFirst(methods, batch.flush));
}

/** Every method but the queueing ones commits the queued writes first (reads see them; order kept). */
function commitQueuedFirst(methods: Store, flush: () => void): Store {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(methods)) {
    out[key] =
      typeof value !== 'function' || QUEUEING_METHODS.has(key)
        ? value
        : (...args: unknown[]) => {
            flush();
            return (value as (...a: unknown[]) => unknown)(...args);
          };
  }
  return out as unknown as Store;
}

const QUEUEING_METHODS: ReadonlySet<string> = new Set([
  'insertHookRow',
  'insertVerdict',
  'insertTransition',
  'committed',
]);
