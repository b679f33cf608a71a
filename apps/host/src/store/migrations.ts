/** One numbered schema migration; numbers are permanent and applied in order, once. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration of the store, ascending. Append only; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'panes, hook rows, verdicts, guests',
    sql: `
      CREATE TABLE panes (
        handle TEXT PRIMARY KEY,
        pane_key TEXT NOT NULL UNIQUE,
        tab_id TEXT NOT NULL,
        name TEXT,
        cwd TEXT NOT NULL,
        argv TEXT NOT NULL,
        guest TEXT,
        agent TEXT,
        created_at INTEGER NOT NULL,
        title TEXT,
        exited_at INTEGER,
        exit_code INTEGER,
        exit_signal INTEGER,
        exit_cause TEXT
      );
      CREATE TABLE hook_rows (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pane_key TEXT NOT NULL,
        connection_id TEXT NOT NULL,
        source TEXT NOT NULL,
        hook_event_name TEXT,
        received_at INTEGER NOT NULL,
        envelope TEXT NOT NULL,
        row TEXT
      );
      CREATE INDEX hook_rows_pane ON hook_rows (pane_key, id);
      CREATE TABLE verdicts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        handle TEXT NOT NULL,
        at INTEGER NOT NULL,
        status TEXT,
        is_running_agent INTEGER NOT NULL,
        agent_wait_kind TEXT NOT NULL CHECK (agent_wait_kind IN ('absent', 'null', 'value')),
        agent_wait TEXT
      );
      CREATE INDEX verdicts_handle ON verdicts (handle, id);
      CREATE TABLE guests (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        target TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (kind, name)
      );
    `,
  },
  {
    version: 2,
    name: 'command hook runs',
    sql: `
      CREATE TABLE command_hook_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        handle TEXT,
        event TEXT NOT NULL,
        at INTEGER NOT NULL,
        record TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'hook row sizes and arrival index for retention',
    sql: `
      ALTER TABLE hook_rows ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE hook_rows SET size_bytes = length(CAST(envelope AS BLOB)) + coalesce(length(CAST(row AS BLOB)), 0);
      CREATE INDEX hook_rows_received ON hook_rows (received_at);
    `,
  },
  {
    version: 4,
    name: 'guest options (agents, ssh args, no hooks) for restore at start',
    sql: `
      ALTER TABLE guests ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    `,
  },
  {
    version: 5,
    name: 'prompt queue',
    sql: `
      CREATE TABLE prompt_queue (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        handle TEXT NOT NULL,
        position INTEGER NOT NULL,
        prompt TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'delivering', 'submitted', 'failed', 'cancelled', 'expired')),
        source TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        expires_at INTEGER,
        delivering_at INTEGER,
        receipt TEXT,
        error_code TEXT,
        error_message TEXT
      );
      CREATE INDEX prompt_queue_pane ON prompt_queue (handle, state, position);
    `,
  },
  {
    version: 6,
    name: 'pane launch (env, size), agent session id, resumed-as for resume after the keeper is gone',
    sql: `
      ALTER TABLE panes ADD COLUMN launch TEXT;
      ALTER TABLE panes ADD COLUMN session_id TEXT;
      ALTER TABLE panes ADD COLUMN resumed_as TEXT;
    `,
  },
  {
    version: 7,
    name: 'browser sessions (their secrets as SHA-256 digests), kept across host restarts',
    sql: `
      CREATE TABLE web_sessions (
        id TEXT PRIMARY KEY,
        secret_digest BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL,
        revoked_at INTEGER,
        revoked_why TEXT
      );
    `,
  },
  {
    version: 8,
    name: 'verdict transitions with their explanation, notification events and delivery attempts',
    sql: `
      CREATE TABLE verdict_transitions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        handle TEXT NOT NULL,
        at INTEGER NOT NULL,
        from_status TEXT,
        to_status TEXT,
        explanation TEXT NOT NULL,
        recorded TEXT NOT NULL
      );
      CREATE INDEX verdict_transitions_pane ON verdict_transitions (handle, id);
      CREATE TABLE notify_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL,
        handle TEXT,
        kind TEXT NOT NULL,
        sink TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        at INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        status INTEGER,
        latency_ms INTEGER,
        error TEXT
      );
      CREATE INDEX notify_attempts_event ON notify_attempts (event_id, sink);
    `,
  },
];
