import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  WEB_PAIRING_CODE_BYTES,
  WEB_PAIRING_CODES_MAX,
  WEB_PAIRING_TTL_MS,
  WEB_SESSION_ENDED_KEEP_MS,
  WEB_SESSION_IDLE_MS,
  WEB_SESSION_SECRET_BYTES,
  WEB_SESSION_TOUCH_MS,
} from '../constants.ts';
import type { WebSessionStore } from '../store/web-session-store.ts';
import { memoryWebSessionStore } from './memory-session-store.ts';

/** One paired browser session (what `orca web sessions` lists; the secret is never kept). */
export interface WebSession {
  readonly id: string;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  /** When it expires unless used before. */
  readonly expiresAt: number;
}

/** What an upgrade presented: a one-time pairing code or a session token. */
export type WebCredential = { kind: 'pair'; code: string } | { kind: 'session'; token: string };

/** Why a credential opens nothing. Stable codes: the page shows them, tests assert them. */
export type WebRefusal = 'no_credential' | 'unknown_code' | 'expired_code' | 'unknown_session' | 'revoked' | 'expired';

/** The result of checking a credential: the session it opens, or why not (never echoing it). */
export type WebAdmission = { ok: true; session: WebSession; token?: string } | { ok: false; reason: WebRefusal };

/** Options of {@link createWebAuth}. */
export interface WebAuthOptions {
  readonly now?: () => number;
  /** Where sessions live (the host's SQLite store); in memory when absent. */
  readonly store?: WebSessionStore;
  /** Idle lifetime of a session (ms). */
  readonly idleMs?: number;
}

/** Pairing codes and session tokens of the web server. */
export interface WebAuth {
  /** A new one-time pairing code (base64url), usable until `expiresAt`. */
  issuePairingCode(ttlMs?: number): { code: string; expiresAt: number };
  /**
   * Checks `credential`. A pairing code is consumed (used once, even if the connection then
   * fails) and mints a session whose token comes back once in `token`.
   */
  admit(credential: WebCredential | null): WebAdmission;
  /** Whether session `id` may still act (checked on every frame); records its use. */
  check(id: string): { ok: true } | { ok: false; reason: WebRefusal };
  sessions(): WebSession[];
  /** Ends session `id`; false when it is unknown or already ended. */
  revoke(id: string): boolean;
  /** Ends the sessions idle too long; returns their ids. */
  sweep(): string[];
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time equality of two secrets (compared as SHA-256 digests, so lengths never leak). */
export function secretEquals(presented: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(digest(presented), expectedDigest);
}

/**
 * Creates the web server's credential store. Codes and secrets are random (`crypto.randomBytes`),
 * kept only as SHA-256 digests and compared in constant time. A session token is
 * `<sessionId>.<secret>`. Sessions live in `store` (so they survive a host restart) and expire
 * after `idleMs` without use; revoked and expired ones are kept a while, so a page is told why.
 *
 * @example
 * const auth = createWebAuth({ store });
 * const { code } = auth.issuePairingCode(); // printed once in the pairing URL's fragment
 */
export function createWebAuth(opts: WebAuthOptions = {}): WebAuth {
  const now = opts.now ?? Date.now;
  const store = opts.store ?? memoryWebSessionStore();
  const idleMs = opts.idleMs ?? WEB_SESSION_IDLE_MS;
  let codes: { digest: Buffer; expiresAt: number }[] = [];
  // Why: the per-frame check reads memory; the store is written when a use is WEB_SESSION_TOUCH_MS newer.
  const active = new Map<string, { createdAt: number; lastUsedAt: number; touchedAt: number; secret: Buffer }>();
  for (const r of store.activeWebSessions())
    active.set(r.id, {
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      touchedAt: r.lastUsedAt,
      secret: r.secretDigest,
    });
  const view = (id: string, e: { createdAt: number; lastUsedAt: number }): WebSession => ({
    id,
    createdAt: e.createdAt,
    lastUsedAt: e.lastUsedAt,
    expiresAt: e.lastUsedAt + idleMs,
  });
  const end = (id: string, why: 'revoked' | 'expired'): boolean => {
    const known = active.delete(id);
    return store.endWebSession(id, now(), why) || known;
  };
  const use = (id: string): WebAdmission => {
    const entry = active.get(id);
    if (!entry) {
      const ended = store.getWebSession(id);
      const why = ended?.revokedWhy;
      return { ok: false, reason: why === 'revoked' || why === 'expired' ? why : 'unknown_session' };
    }
    const at = now();
    if (at - entry.lastUsedAt > idleMs) {
      end(id, 'expired');
      return { ok: false, reason: 'expired' };
    }
    entry.lastUsedAt = Math.max(entry.lastUsedAt, at);
    if (at - entry.touchedAt >= WEB_SESSION_TOUCH_MS) {
      entry.touchedAt = at;
      store.touchWebSession(id, at);
    }
    return { ok: true, session: view(id, entry) };
  };
  return {
    issuePairingCode(ttlMs = WEB_PAIRING_TTL_MS) {
      const at = now();
      codes = codes.filter((c) => c.expiresAt > at).slice(-(WEB_PAIRING_CODES_MAX - 1));
      const code = randomBytes(WEB_PAIRING_CODE_BYTES).toString('base64url');
      const expiresAt = at + ttlMs;
      codes.push({ digest: digest(code), expiresAt });
      return { code, expiresAt };
    },
    admit(credential) {
      if (!credential) return { ok: false, reason: 'no_credential' };
      if (credential.kind === 'pair') {
        // Why: every code is compared (no early exit), so timing does not say which one matched.
        let match = -1;
        for (const [i, expected] of codes.entries()) if (secretEquals(credential.code, expected.digest)) match = i;
        if (match < 0) return { ok: false, reason: 'unknown_code' };
        const [used] = codes.splice(match, 1);
        const at = now();
        if (!used || used.expiresAt <= at) return { ok: false, reason: 'expired_code' };
        const id = randomUUID();
        const secret = randomBytes(WEB_SESSION_SECRET_BYTES).toString('base64url');
        store.insertWebSession({ id, secretDigest: digest(secret), createdAt: at });
        store.pruneWebSessions(at - WEB_SESSION_ENDED_KEEP_MS);
        const entry = { createdAt: at, lastUsedAt: at, touchedAt: at, secret: digest(secret) };
        active.set(id, entry);
        return { ok: true, session: view(id, entry), token: `${id}.${secret}` };
      }
      const dot = credential.token.indexOf('.');
      const id = dot > 0 ? credential.token.slice(0, dot) : '';
      const entry = active.get(id);
      const stored = entry?.secret ?? store.getWebSession(id)?.secretDigest;
      // Why: a wrong secret for a known id is told apart from nothing: never, it is just unknown.
      if (!stored || !secretEquals(credential.token.slice(dot + 1), stored))
        return { ok: false, reason: 'unknown_session' };
      return use(id);
    },
    check(id) {
      const r = use(id);
      return r.ok ? { ok: true } : r;
    },
    sessions: () => [...active.entries()].map(([id, e]) => view(id, e)),
    revoke: (id) => end(id, 'revoked'),
    sweep() {
      const at = now();
      const idle = [...active.entries()].filter(([, e]) => at - e.lastUsedAt > idleMs).map(([id]) => id);
      for (const id of idle) end(id, 'expired');
      return idle;
    },
  };
}
