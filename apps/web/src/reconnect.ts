/** Reconnect delays after a dropped socket: 1 s, doubling, at most 30 s. */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** The delay before reconnect attempt `attempt` (0-based). */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.max(0, Math.min(attempt, 15)));
}

/** What a session check said about this page's token. */
export type TokenCheck =
  | { kind: 'valid' }
  | { kind: 'refused'; reason: string }
  | { kind: 'limited' }
  | { kind: 'unreachable' };

/** Words for the re-pair screen, by the host's reason code. */
export function refusalText(reason: string): string {
  switch (reason) {
    case 'revoked':
      return 'this browser session was revoked (orca web revoke)';
    case 'expired':
      return 'this browser session expired after going unused';
    case 'unknown_session':
      return 'the host does not know this browser session';
    case 'unknown_code':
    case 'expired_code':
      return 'the pairing link was already used, expired or is wrong';
    default:
      return `the host refused this browser (${reason})`;
  }
}

/**
 * Asks the host whether `token` still opens a session (`GET /api/session`). Only an explicit
 * 401 says no; a network failure or a 429 says nothing about the token.
 */
export async function checkToken(token: string, fetcher: typeof fetch = fetch): Promise<TokenCheck> {
  let res: Response;
  try {
    res = await fetcher('/api/session', { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    return { kind: 'unreachable' };
  }
  if (res.status === 200) return { kind: 'valid' };
  if (res.status === 429) return { kind: 'limited' };
  if (res.status === 401) {
    const body = (await res.json().catch(() => null)) as { reason?: unknown } | null;
    return { kind: 'refused', reason: typeof body?.reason === 'string' ? body.reason : 'unknown_session' };
  }
  return { kind: 'unreachable' };
}
