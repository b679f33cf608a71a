import type Database from 'better-sqlite3';

/** A paired browser session as stored: its secret only as a SHA-256 digest. */
export interface WebSessionRecord {
  readonly id: string;
  readonly secretDigest: Buffer;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly revokedAt: number | null;
  /** `revoked` (by `orca web revoke`) or `expired` (idle too long). */
  readonly revokedWhy: string | null;
}

/** The browser-session methods of the store (migration 7). */
export interface WebSessionStore {
  insertWebSession(s: { id: string; secretDigest: Buffer; createdAt: number }): void;
  getWebSession(id: string): WebSessionRecord | null;
  /** Sessions not revoked, oldest first. */
  activeWebSessions(): WebSessionRecord[];
  touchWebSession(id: string, at: number): void;
  /** Ends session `id` (once); false when it is unknown or already ended. */
  endWebSession(id: string, at: number, why: 'revoked' | 'expired'): boolean;
  /** Forgets ended sessions older than `before` (they are kept a while to name why a token fails). */
  pruneWebSessions(before: number): number;
}

interface Row {
  id: string;
  secret_digest: Buffer;
  created_at: number;
  last_used_at: number;
  revoked_at: number | null;
  revoked_why: string | null;
}

const record = (r: Row): WebSessionRecord => ({
  id: r.id,
  secretDigest: r.secret_digest,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  revokedWhy: r.revoked_why,
});

/** The browser-session methods over an open database. */
export function webSessionStore(db: Database.Database): WebSessionStore {
  const stmt = {
    insert: db.prepare('INSERT INTO web_sessions (id, secret_digest, created_at, last_used_at) VALUES (?, ?, ?, ?)'),
    get: db.prepare('SELECT * FROM web_sessions WHERE id = ?'),
    active: db.prepare('SELECT * FROM web_sessions WHERE revoked_at IS NULL ORDER BY created_at, id'),
    touch: db.prepare('UPDATE web_sessions SET last_used_at = max(last_used_at, ?) WHERE id = ?'),
    end: db.prepare('UPDATE web_sessions SET revoked_at = ?, revoked_why = ? WHERE id = ? AND revoked_at IS NULL'),
    prune: db.prepare('DELETE FROM web_sessions WHERE revoked_at IS NOT NULL AND revoked_at < ?'),
  };
  return {
    insertWebSession: (s) => void stmt.insert.run(s.id, s.secretDigest, s.createdAt, s.createdAt),
    getWebSession(id) {
      const row = stmt.get.get(id) as Row | undefined;
      return row ? record(row) : null;
    },
    activeWebSessions: () => (stmt.active.all() as Row[]).map(record),
    touchWebSession: (id, at) => void stmt.touch.run(at, id),
    endWebSession: (id, at, why) => stmt.end.run(at, why, id).changes > 0,
    pruneWebSessions: (before) => stmt.prune.run(before).changes,
  };
}
