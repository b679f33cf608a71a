import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { WEB_PAIRING_CODE_BYTES, WEB_SESSION_SECRET_BYTES } from '../constants.ts';

/** One paired browser session (what `orca web sessions` will list; the secret is never kept). */
export interface WebSession {
  readonly id: string;
  readonly createdAt: number;
}

/** What an upgrade presented: a one-time pairing code or a session token. */
export type WebCredential = { kind: 'pair'; code: string } | { kind: 'session'; token: string };

/** The result of checking a credential: the session it opens, or why not (never echoing it). */
export type WebAdmission = { ok: true; session: WebSession; token?: string } | { ok: false; reason: string };

/** Pairing codes and session tokens of the web server (in memory: a host restart pairs again). */
export interface WebAuth {
  /** A new one-time pairing code (base64url). */
  issuePairingCode(): string;
  /**
   * Checks `credential`. A pairing code is consumed (used once, even if the connection then
   * fails) and mints a session whose token comes back once in `token`.
   */
  admit(credential: WebCredential | null): WebAdmission;
  sessions(): WebSession[];
  revoke(id: string): boolean;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time equality of two secrets (compared as SHA-256 digests, so lengths never leak). */
export function secretEquals(presented: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(digest(presented), expectedDigest);
}

/**
 * Creates the web server's credential store. Codes and secrets are random (`crypto.randomBytes`),
 * stored only as SHA-256 digests and compared in constant time. A session token is
 * `<sessionId>.<secret>`.
 *
 * @example
 * const auth = createWebAuth();
 * const code = auth.issuePairingCode(); // printed once in the pairing URL's fragment
 */
export function createWebAuth(opts: { now?: () => number } = {}): WebAuth {
  const now = opts.now ?? Date.now;
  const codes: Buffer[] = [];
  const sessions = new Map<string, { session: WebSession; secret: Buffer }>();
  return {
    issuePairingCode() {
      const code = randomBytes(WEB_PAIRING_CODE_BYTES).toString('base64url');
      codes.push(digest(code));
      return code;
    },
    admit(credential) {
      if (!credential) return { ok: false, reason: 'no credential' };
      if (credential.kind === 'pair') {
        // Why: every code is compared (no early exit), so timing does not say which one matched.
        let match = -1;
        for (const [i, expected] of codes.entries()) if (secretEquals(credential.code, expected)) match = i;
        if (match < 0) return { ok: false, reason: 'unknown or used pairing code' };
        codes.splice(match, 1);
        const session: WebSession = { id: randomUUID(), createdAt: now() };
        const secret = randomBytes(WEB_SESSION_SECRET_BYTES).toString('base64url');
        sessions.set(session.id, { session, secret: digest(secret) });
        return { ok: true, session, token: `${session.id}.${secret}` };
      }
      const dot = credential.token.indexOf('.');
      const entry = dot > 0 ? sessions.get(credential.token.slice(0, dot)) : undefined;
      if (!entry || !secretEquals(credential.token.slice(dot + 1), entry.secret))
        return { ok: false, reason: 'unknown or revoked session' };
      return { ok: true, session: entry.session };
    },
    sessions: () => [...sessions.values()].map((e) => e.session),
    revoke: (id) => sessions.delete(id),
  };
}
