import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { DATA_FILE_MODE } from '../constants.ts';
import { HostError } from '../errors.ts';

/** One client connection as the RPC layer sees it. */
export interface RpcConnection {
  /** Sends a text message (an RPC envelope). */
  sendText(text: string): boolean;
  /** Sends a binary message (a terminal-stream frame); false when the socket refused it. */
  sendBinary(bytes: Uint8Array): boolean;
  /** Registers cleanup run once when the connection drops; the returned function unregisters it. */
  onClose(cleanup: () => void): () => void;
  readonly remote: 'unix' | 'tcp' | 'web';
}

/** What the host plugs into the transport. */
export interface RpcHandlers {
  onText(conn: RpcConnection, text: string): void;
  onBinary(conn: RpcConnection, bytes: Uint8Array): void;
}

/** The runtime socket (and optional TCP listener). */
export interface RpcSocketServer {
  readonly socketPath: string;
  readonly tcpPort: number | null;
  close(): Promise<void>;
}

function tokenOk(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Turns each connection of `wss` into an {@link RpcConnection} fed to `handlers`. `onConnection`
 * sees the connection and its upgrade request first (the web server binds its session there).
 */
export function attachRpcConnections(
  wss: WebSocketServer,
  handlers: RpcHandlers,
  remote: RpcConnection['remote'],
  onConnection?: (conn: RpcConnection, req: IncomingMessage, ws: WebSocket) => void,
  /** Checked before each frame is handled: false ends the socket at once and drops the frame. */
  admitFrame?: (conn: RpcConnection) => boolean,
): void {
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    // Why: a Set, so a request that ends removes its own cleanup in O(1) (issue 16: one
    // close handler per message was kept until the connection closed).
    const cleanups = new Set<() => void>();
    const conn: RpcConnection = {
      remote,
      sendText(text) {
        if (ws.readyState !== ws.OPEN) return false;
        ws.send(text);
        return true;
      },
      sendBinary(bytes) {
        if (ws.readyState !== ws.OPEN) return false;
        ws.send(bytes, { binary: true });
        return true;
      },
      onClose(cleanup) {
        cleanups.add(cleanup);
        return () => {
          cleanups.delete(cleanup);
        };
      },
    };
    onConnection?.(conn, req, ws);
    ws.on('message', (data, isBinary) => {
      if (admitFrame && !admitFrame(conn)) {
        ws.terminate();
        return;
      }
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) handlers.onBinary(conn, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
      else handlers.onText(conn, buf.toString('utf8'));
    });
    ws.on('close', () => {
      const pending = [...cleanups];
      cleanups.clear();
      for (const cleanup of pending) {
        try {
          cleanup();
        } catch {
          // a cleanup must not stop the others
        }
      }
    });
    ws.on('error', () => ws.terminate());
  });
}

function listen(server: Server, target: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const done = (): void => {
      server.off('error', reject);
      resolve();
    };
    if (typeof target === 'string') server.listen(target, done);
    else server.listen(target.port, target.host, done);
  });
}

/**
 * Serves WebSocket RPC on the Unix socket `socketPath` (mode 0600; a stale socket file is
 * replaced — the single-instance guard already proved no live host owns it) and, with `tcp`, on
 * 127.0.0.1:PORT behind `Authorization: Bearer <token>`.
 */
export async function startRpcSocketServer(opts: {
  socketPath: string;
  handlers: RpcHandlers;
  tcp?: { port: number; token: string };
}): Promise<RpcSocketServer> {
  try {
    unlinkSync(opts.socketPath);
  } catch {
    // none left behind
  }
  const unixHttp = createServer((_req, res) => {
    res.writeHead(426).end();
  });
  const unixWss = new WebSocketServer({ server: unixHttp, maxPayload: 16 * 1024 * 1024 });
  attachRpcConnections(unixWss, opts.handlers, 'unix');
  // Why: ws re-emits the http server's errors; a listen failure is reported by listen() instead of crashing.
  unixWss.on('error', () => undefined);
  try {
    await listen(unixHttp, opts.socketPath);
    if (process.platform !== 'win32') chmodSync(opts.socketPath, DATA_FILE_MODE);
  } catch (cause) {
    // Why: a listen that worked but failed after (chmod) must not leave a half-dead host behind.
    if (unixHttp.listening) await new Promise<void>((resolve) => unixHttp.close(() => resolve()));
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `cannot listen on ${opts.socketPath}: ${(cause as Error).message}; pass another --data-dir`,
      { cause },
    );
  }
  let tcpHttp: Server | null = null;
  let tcpWss: WebSocketServer | null = null;
  let tcpPort: number | null = null;
  if (opts.tcp) {
    const token = opts.tcp.token;
    tcpHttp = createServer((_req, res) => {
      res.writeHead(426).end();
    });
    tcpWss = new WebSocketServer({
      server: tcpHttp,
      maxPayload: 16 * 1024 * 1024,
      verifyClient: (info: { req: IncomingMessage }) => {
        const header = info.req.headers.authorization;
        const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : undefined;
        return tokenOk(presented, token);
      },
    });
    attachRpcConnections(tcpWss, opts.handlers, 'tcp');
    tcpWss.on('error', () => undefined);
    try {
      await listen(tcpHttp, { host: '127.0.0.1', port: opts.tcp.port });
    } catch (cause) {
      // Why: a failed start must not leave the Unix socket listening (a half-dead host).
      await new Promise<void>((resolve) => unixHttp.close(() => resolve()));
      try {
        unlinkSync(opts.socketPath);
      } catch {
        // already gone
      }
      throw new HostError(
        'ORCA_HOST_LISTEN',
        `cannot listen on 127.0.0.1:${opts.tcp.port}: ${(cause as Error).message}; pick another --listen port (0 = any)`,
        { cause, context: { port: opts.tcp.port } },
      );
    }
    const address = tcpHttp.address();
    tcpPort = typeof address === 'object' && address ? address.port : null;
  }
  const closeServer = (server: Server, wss: WebSocketServer | null): Promise<void> =>
    new Promise((resolve) => {
      for (const client of wss?.clients ?? []) client.terminate();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    socketPath: opts.socketPath,
    tcpPort,
    async close() {
      await closeServer(unixHttp, unixWss);
      if (tcpHttp) await closeServer(tcpHttp, tcpWss);
      try {
        unlinkSync(opts.socketPath);
      } catch {
        // already gone
      }
    },
  };
}
