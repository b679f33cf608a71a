import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { defineMethod } from '@orca/wire/rpc';
import { type WebSocket, WebSocketServer } from 'ws';
import { isLoopbackHost } from '../cli/web-address.ts';
import { WEB_MAX_MESSAGE_BYTES, WEB_SOCKET_PATH, WEB_SUBPROTOCOL } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { Host } from '../host/host-types.ts';
import { createRuntimeHandlers } from '../rpc/runtime-server.ts';
import { attachRpcConnections, type RpcConnection } from '../rpc/socket-server.ts';
import { createWebAuth, type WebAdmission, type WebAuth, type WebCredential, type WebSession } from './web-auth.ts';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * The Content-Security-Policy of every served file: scripts, styles and connections only from this
 * origin; no frames, forms, plugins or base rewrites.
 */
// Why: 'unsafe-inline' for styles only: xterm.js's DOM renderer writes its cell styles into a
// <style> element it creates. Scripts stay 'self'-only, which is what stops injection.
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': WEB_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  readonly host: Host;
  /** The address to bind and its port (0 = any). */
  readonly bind: { host: string; port: number };
  /** The built browser client (see `findWebAssets`). */
  readonly assets: string;
  readonly runtimeId?: string;
  readonly auth?: WebAuth;
}

/** The running web server. */
export interface WebServer {
  /** `http://HOST:PORT` as a browser on this machine reaches it. */
  readonly origin: string;
  readonly port: number;
  readonly auth: WebAuth;
  /** The URL to open: the origin plus a fresh one-time code in the fragment. */
  pairingUrl(): string;
  /** The paired sessions, with how many sockets each has open now. */
  sessions(): (WebSession & { sockets: number })[];
  /** Ends session `id`; its open sockets close. */
  revoke(id: string): boolean;
  close(): Promise<void>;
}

function credentialOf(protocols: string[]): WebCredential | null {
  for (const p of protocols) {
    if (p.startsWith('orca.pair.')) return { kind: 'pair', code: p.slice('orca.pair.'.length) };
    if (p.startsWith('orca.session.')) return { kind: 'session', token: p.slice('orca.session.'.length) };
  }
  return null;
}

/** Refuses an upgrade with a bare status line: no WebSocket is opened, no data is sent. */
function refuse(socket: Duplex, status: 400 | 401 | 403 | 404): void {
  const text = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status];
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/**
 * Which `Origin`s may open the socket: this server's own. On a loopback bind that is
 * `http://127.0.0.1:PORT` / `http://localhost:PORT` (or `[::1]`); on a wider bind
 * (`--web-bind-any`) it is the `Host` the request names, only when that is an IP literal or
 * `localhost`, so a DNS-rebound name cannot pass for this origin.
 */
function originAllowed(origin: string | undefined, req: IncomingMessage, bindHost: string, port: number): boolean {
  if (origin === undefined) return false;
  const loopbackOrigins = isLoopbackHost(bindHost)
    ? bindHost.includes(':')
      ? [`http://[${bindHost}]:${port}`]
      : [`http://${bindHost}:${port}`, `http://localhost:${port}`]
    : [];
  if (loopbackOrigins.includes(origin)) return true;
  if (isLoopbackHost(bindHost)) return false;
  const hostHeader = req.headers.host;
  if (!hostHeader) return false;
  let url: URL;
  try {
    url = new URL(`http://${hostHeader}`);
  } catch {
    return false;
  }
  const name = url.hostname.replace(/^\[|\]$/g, '');
  const literal = name === 'localhost' || /^[0-9.]+$/.test(name) || name.includes(':');
  return literal && Number(url.port || 80) === port && origin === `http://${hostHeader}`;
}

async function serveFile(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...SECURITY_HEADERS, allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    res.writeHead(400, SECURITY_HEADERS).end();
    return;
  }
  // Why: only plain names below the assets folder; no dot segments, no NUL, no backslashes.
  if (pathname === '/') pathname = '/index.html';
  if (!/^(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+$/.test(pathname) || pathname.includes('..')) {
    res.writeHead(404, SECURITY_HEADERS).end();
    return;
  }
  const file = `${root}${pathname}`;
  const ext = pathname.slice(pathname.lastIndexOf('.'));
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
    const body = await readFile(file);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'content-length': body.byteLength,
      'cache-control': pathname === '/index.html' ? 'no-store' : 'public, max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404, SECURITY_HEADERS).end();
  }
}

/**
 * Serves the built browser client and its WebSocket (runtime RPC + `terminal.multiplex`) on one
 * port. The upgrade needs this server's `Origin`, the `orca.v1` subprotocol and a credential
 * offered as a second subprotocol: a one-time pairing code (`orca.pair.CODE`, from the pairing
 * URL's fragment) or a session token (`orca.session.TOKEN`). Anything else is refused before the
 * WebSocket opens. A paired page reads its session token once with the `web.session` method.
 *
 * @example
 * const web = await startWebServer({ host, bind: { host: '127.0.0.1', port: 0 }, assets: findWebAssets() });
 * console.log(web.pairingUrl()); // http://127.0.0.1:PORT/#pair=…
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const auth = opts.auth ?? createWebAuth();
  const admissions = new WeakMap<RpcConnection, WebAdmission & { ok: true }>();
  const socketsBySession = new Map<string, Set<WebSocket>>();
  const handlers = createRuntimeHandlers(opts.host, {
    runtimeId: opts.runtimeId ?? randomUUID(),
    extraMethods: (conn) => [
      defineMethod({
        name: 'web.session',
        params: null,
        handler: () => {
          const admission = admissions.get(conn);
          if (!admission) return { sessionId: null };
          // Why: the token is handed over once, on the connection the pairing code opened.
          const token = admission.token;
          delete admission.token;
          return { sessionId: admission.session.id, ...(token ? { token } : {}) };
        },
      }),
    ],
  });
  const http = createServer((req, res) => {
    void serveFile(opts.assets, req, res);
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WEB_MAX_MESSAGE_BYTES,
    handleProtocols: () => WEB_SUBPROTOCOL,
  });
  const pendingAdmission = new WeakMap<IncomingMessage, WebAdmission & { ok: true }>();
  attachRpcConnections(wss, handlers, 'web', (conn, req, ws) => {
    const admission = pendingAdmission.get(req);
    if (!admission) {
      ws.terminate();
      return;
    }
    admissions.set(conn, admission);
    const id = admission.session.id;
    const set = socketsBySession.get(id) ?? new Set<WebSocket>();
    set.add(ws);
    socketsBySession.set(id, set);
    ws.once('close', () => set.delete(ws));
  });
  let port = opts.bind.port;
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      refuse(socket, 400);
      return;
    }
    if (path !== WEB_SOCKET_PATH) return refuse(socket, 404);
    if (!originAllowed(req.headers.origin, req, opts.bind.host, port)) return refuse(socket, 403);
    const protocols = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0);
    if (!protocols.includes(WEB_SUBPROTOCOL)) return refuse(socket, 400);
    const admission = auth.admit(credentialOf(protocols));
    if (!admission.ok) {
      opts.host.log.warn({ reason: admission.reason }, 'web socket refused');
      return refuse(socket, 401);
    }
    pendingAdmission.set(req, admission);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.bind.port, opts.bind.host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch((cause: unknown) => {
    throw new HostError(
      'ORCA_HOST_LISTEN',
      `cannot serve the web client on ${opts.bind.host}:${opts.bind.port}: ${(cause as Error).message}; pick another --web port (0 = any)`,
      { cause, context: { port: opts.bind.port } },
    );
  });
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : opts.bind.port;
  const shownHost = isLoopbackHost(opts.bind.host)
    ? opts.bind.host.includes(':')
      ? `[${opts.bind.host}]`
      : opts.bind.host
    : '127.0.0.1';
  const origin = `http://${shownHost}:${port}`;
  opts.host.log.info({ origin }, 'web client served');
  return {
    origin,
    port,
    auth,
    pairingUrl: () => `${origin}/#pair=${auth.issuePairingCode()}`,
    sessions: () => auth.sessions().map((s) => ({ ...s, sockets: socketsBySession.get(s.id)?.size ?? 0 })),
    revoke(id) {
      const removed = auth.revoke(id);
      for (const ws of socketsBySession.get(id) ?? []) ws.close(4001, 'session revoked');
      socketsBySession.delete(id);
      return removed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
export type { WebSession };
