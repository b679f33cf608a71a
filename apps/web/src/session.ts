import type { HostCredential } from './host-socket.ts';

const TOKEN_KEY = 'orca.sessionToken';

/**
 * The credential to open the socket with: the pairing code of a `#pair=CODE` fragment (removed
 * from the address bar at once, so it is not kept in history), else this tab's session token.
 */
export function takeCredential(
  location: { hash: string; pathname: string; search: string },
  history: { replaceState(data: unknown, unused: string, url: string): void },
  storage: Pick<Storage, 'getItem'>,
): HostCredential | null {
  const match = /^#pair=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (match?.[1]) {
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    return { kind: 'pair', code: match[1] };
  }
  const token = storage.getItem(TOKEN_KEY);
  return token ? { kind: 'session', token } : null;
}

/** Keeps the session token for reconnects and reloads of this tab (sessionStorage). */
export function keepToken(storage: Pick<Storage, 'setItem'>, token: string): void {
  storage.setItem(TOKEN_KEY, token);
}

/** Forgets the token (the host refused it). */
export function forgetToken(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(TOKEN_KEY);
}
