import { type BrowserContract, type TypedCaller, typedCaller } from '@orca/wire/contract';
import { createRpcCallRouter } from '@orca/wire/rpc';
import { createTerminalClient, type TerminalClient } from '@orca/wire/terminal-stream';

/** The WebSocket subprotocol of the host's web server (credentials ride beside it). */
export const WEB_SUBPROTOCOL = 'orca.v1';

/** A refused or failed RPC call: `code` is the host's wire code (`agent_prompt_blocked`, …). */
export class HostCallError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'HostCallError';
    this.code = code;
  }
}

/**
 * One open socket to the host: RPC envelopes as text, `terminal.multiplex` frames as binary.
 * `call` and `stream` are typed by the methods the contract offers to browsers: a page calling a
 * method the host refuses to browsers, or reading a result as what it is not, fails the typecheck.
 */
export interface HostSocket extends TypedCaller<BrowserContract> {
  /** The one `terminal.multiplex` client of this socket (created on first use). */
  terminal(): TerminalClient;
  /** Registers `listener` for the socket closing; returns the unregister function. */
  onClose(listener: (event: { code: number; reason: string }) => void): () => void;
  close(): void;
}

/** The credential an upgrade presents: a one-time pairing code or a session token. */
export type HostCredential = { kind: 'pair'; code: string } | { kind: 'session'; token: string };

/** How the page reaches the host: the same origin that served it, path `/ws`. */
export function socketUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/**
 * Opens the socket with `credential`; rejects with `HostCallError('refused', …)` when the host
 * refused the upgrade (a browser is not told why: wrong, used or revoked credential, or Origin).
 *
 * @example
 * const socket = await openHostSocket(socketUrl(location), { kind: 'pair', code });
 * const { panes } = await socket.call('terminal.list');
 */
export function openHostSocket(url: string, credential: HostCredential): Promise<HostSocket> {
  const ws = new WebSocket(url, [
    WEB_SUBPROTOCOL,
    credential.kind === 'pair' ? `orca.pair.${credential.code}` : `orca.session.${credential.token}`,
  ]);
  ws.binaryType = 'arraybuffer';
  const router = createRpcCallRouter((failure) => new HostCallError(failure.error.code, failure.error.message));
  const closeListeners = new Set<(event: { code: number; reason: string }) => void>();
  let nextId = 1;
  let terminal: TerminalClient | null = null;
  const send = (method: string, params: unknown, onEvent?: (r: unknown) => void): Promise<unknown> => {
    if (ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new HostCallError('closed', 'the connection to the host is closed'));
    }
    const id = `web-${nextId++}`;
    const answer = router.expect<unknown>(id, onEvent);
    ws.send(JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) }));
    return answer;
  };
  const socket: HostSocket = {
    ...typedCaller<BrowserContract>(send),
    terminal() {
      terminal ??= createTerminalClient({
        type: 'desktop',
        send: (bytes) => {
          if (ws.readyState !== WebSocket.OPEN) return false;
          ws.send(bytes);
          return true;
        },
        call: (method, params) => send(method, params, (event) => terminal?.handleEvent(event)),
      });
      return terminal;
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close: () => ws.close(),
  };
  ws.addEventListener('message', (event: MessageEvent) => {
    if (event.data instanceof ArrayBuffer) {
      terminal?.receive(new Uint8Array(event.data));
      return;
    }
    router.receive(String(event.data));
  });
  return new Promise((resolve, reject) => {
    let opened = false;
    ws.addEventListener('open', () => {
      opened = true;
      resolve(socket);
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      terminal?.drop();
      router.failAll(new HostCallError('closed', 'the host closed the connection'));
      if (!opened)
        reject(new HostCallError('refused', 'the host refused the connection (pairing link used or wrong?)'));
      for (const listener of [...closeListeners]) listener({ code: event.code, reason: event.reason });
    });
  });
}
