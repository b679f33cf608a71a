import type { HostCredential } from './host-socket.ts';

const TOKEN_KEY = 'orca.sessionToken';

/** This tab's session token as a credential, if it has one (sessionStorage). */
export function storedCredential(storage: Pick<Storage, 'getItem'>): HostCredential | null {
  const token = storage.getItem(TOKEN_KEY);
  return token ? { kind: 'session', token } : null;
}

/** Keeps the session token for reconnects and reloads of this tab (sessionStorage). */
export function keepToken(storage: Pick<Storage, 'setItem'>, token: string): void {
  storage.setItem(TOKEN_KEY, token);
}

/** Forgets the token (the host said it opens nothing). */
export function forgetToken(storage: Pick<Storage, 'removeItem'>): void {
  storage.removeItem(TOKEN_KEY);
}
