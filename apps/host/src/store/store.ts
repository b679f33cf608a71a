import { type Tri, triFrom } from '@orca/wire/compat';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { STORE_WAL_SIZE_LIMIT_BYTES } from '../constants.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { compactStore, type GcReport, hookRowRetention } from './retention.ts';
import { storeError, storeFileBytes, tightenStoreFiles, withStoreErrors } from './store-files.ts';

export type { GcReport } from './retention.ts';

/** A pane as stored. `exit*` are null while the PTY lives. */
export interface PaneRecord {
  readonly handle: string;
  readonly paneKey: string;
  readonly tabId: string;
  readonly name: string | null;
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly guest: string | null;
  readonly agent: string | null;
  readonly createdAt: number;
  readonly title: string | null;
  readonly exitedAt: number | null;
  readonly exitCode: number | null;
  readonly exitSignal: number | null;
  readonly exitCause: string | null;
}

/** A stored hook event: the raw accepted envelope plus the normalised row (null if ignored). */
export interface HookRowRecord {
  readonly id: number;
  readonly paneKey: string;
  readonly connectionId: string;
  readonly source: string;
  readonly hookEventName: string | null;
  readonly receivedAt: number;
  readonly envelope: Record<string, unknown>;
  readonly row: Record<string, unknown> | null;
}

/** `agentWait` as stored: the tri-state kept exactly (absent, null, or an object). */
export type StoredAgentWait = Tri<Record<string, unknown>>;

/** A stored verdict. */
export interface VerdictRecord {
  readonly handle: string;
  readonly at: number;
  readonly status: string | null;
  readonly isRunningAgent: boolean;
  readonly agentWait: StoredAgentWait;
}

/** A stored guest. */
export interface GuestRecord {
  readonly kind: string;
  readonly name: string;
  readonly target: string;
  readonly createdAt: number;
  /** What `guest add` was given, to add it again at the next start. */
  readonly options?: GuestOptionsRecord;
}

/** The stored options of a guest. */
export interface GuestOptionsRecord {
  readonly noHooks?: boolean;
  readonly agents?: readonly string[];
  readonly sshArgs?: readonly string[];
}

const GuestOptionsSchema = z
  .object({
    noHooks: z.boolean().optional(),
    agents: z.array(z.string()).optional(),
    sshArgs: z.array(z.string()).optional(),
  })
  .catch({});

function parseGuestOptions(text: string): GuestOptionsRecord {
  try {
    return GuestOptionsSchema.parse(JSON.parse(text)) as GuestOptionsRecord;
  } catch {
    return {};
  }
}

/** The host's SQLite store (better-sqlite3, WAL). Synchronous by design: one writer, the host. */
export interface Store {
  readonly path: string;
  schemaVersion(): number;
  insertPane(pane: Omit<PaneRecord, 'exitedAt' | 'exitCode' | 'exitSignal' | 'exitCause' | 'title'>): void;
  setPaneTitle(handle: string, title: string): void;
  setPaneAgent(handle: string, agent: string): void;
  markPaneExited(handle: string, exit: { at: number; code: number | null; signal: number | null; cause: string }): void;
  markLivePanesExited(cause: string, at: number): number;
  getPane(handle: string): PaneRecord | null;
  listPanes(): PaneRecord[];
  insertHookRow(row: Omit<HookRowRecord, 'id'>): number;
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
  insertVerdict(verdict: VerdictRecord): void;
  latestVerdict(handle: string): VerdictRecord | null;
  verdicts(handle: string): VerdictRecord[];
  upsertGuest(guest: GuestRecord): void;
  deleteGuest(kind: string, name: string): boolean;
  /** Forgets a pane: its record, verdicts, hook rows and command-hook runs (one transaction). */
  deletePane(handle: string): boolean;
  listGuests(): GuestRecord[];
  insertCommandHookRun(run: { handle: string | null; event: string; at: number; record: unknown }): void;
  countCommandHookRuns(): number;
  close(): void;
}

interface PaneRow {
  handle: string;
  pane_key: string;
  tab_id: string;
  name: string | null;
  cwd: string;
  argv: string;
  guest: string | null;
  agent: string | null;
  created_at: number;
  title: string | null;
  exited_at: number | null;
  exit_code: number | null;
  exit_signal: number | null;
  exit_cause: string | null;
}

interface HookRowRow {
  id: number;
  pane_key: string;
  connection_id: string;
  source: string;
  hook_event_name: string | null;
  received_at: number;
  envelope: string;
  row: string | null;
}

interface VerdictRow {
  handle: string;
  at: number;
  status: string | null;
  is_running_agent: number;
  agent_wait_kind: 'absent' | 'null' | 'value';
  agent_wait: string | null;
}

function toPane(r: PaneRow): PaneRecord {
  return {
    handle: r.handle,
    paneKey: r.pane_key,
    tabId: r.tab_id,
    name: r.name,
    cwd: r.cwd,
    argv: JSON.parse(r.argv) as string[],
    guest: r.guest,
    agent: r.agent,
    createdAt: r.created_at,
    title: r.title,
    exitedAt: r.exited_at,
    exitCode: r.exit_code,
    exitSignal: r.exit_signal,
    exitCause: r.exit_cause,
  };
}

function toHookRow(r: HookRowRow): HookRowRecord {
  return {
    id: r.id,
    paneKey: r.pane_key,
    connectionId: r.connection_id,
    source: r.source,
    hookEventName: r.hook_event_name,
    receivedAt: r.received_at,
    envelope: JSON.parse(r.envelope) as Record<string, unknown>,
    row: r.row === null ? null : (JSON.parse(r.row) as Record<string, unknown>),
  };
}

function toVerdict(r: VerdictRow): VerdictRecord {
  // Why: the row keeps the kind in its own column, so an absent wait never reads back as null.
  const agentWait: StoredAgentWait =
    r.agent_wait_kind === 'absent'
      ? { kind: 'absent' }
      : triFrom(r.agent_wait_kind === 'value' && r.agent_wait !== null ? JSON.parse(r.agent_wait) : null);
  return {
    handle: r.handle,
    at: r.at,
    status: r.status,
    isRunningAgent: r.is_running_agent === 1,
    agentWait,
  };
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

/**
 * Opens (creating if needed) the store at `path`, in WAL mode, and runs the numbered migrations.
 *
 * @example
 * const store = openStore('/tmp/orca/orca.sqlite');
 * store.listPanes();
 */
export function openStore(path: string): Store {
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
      `INSERT INTO panes (handle, pane_key, tab_id, name, cwd, argv, guest, agent, created_at)
       VALUES (@handle, @paneKey, @tabId, @name, @cwd, @argv, @guest, @agent, @createdAt)`,
    ),
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
    deletePane: db.prepare('DELETE FROM panes WHERE handle = ?'),
    listGuests: db.prepare('SELECT * FROM guests ORDER BY kind, name'),
    insertRun: db.prepare('INSERT INTO command_hook_runs (handle, event, at, record) VALUES (?, ?, ?, ?)'),
    countRuns: db.prepare('SELECT COUNT(*) AS n FROM command_hook_runs'),
  };
  return withStoreErrors<Store>(path, {
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
      });
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
      const info = stmt.insertHook.run(
        r.paneKey,
        r.connectionId,
        r.source,
        r.hookEventName,
        r.receivedAt,
        envelope,
        row,
        bytes,
      );
      retention.inserted(r.paneKey, bytes);
      return Number(info.lastInsertRowid);
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
      stmt.insertVerdict.run(
        v.handle,
        v.at,
        v.status,
        v.isRunningAgent ? 1 : 0,
        v.agentWait.kind,
        v.agentWait.kind === 'value' ? JSON.stringify(v.agentWait.value) : null,
      );
    },
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
  });
}
