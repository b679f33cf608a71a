import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { WEB_MAX_MESSAGE_BYTES, WEB_SESSION_SWEEP_MS, WEB_SOCKET_PATH, WEB_SUBPROTOCOL } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { Host } from '../host/host-types.ts';
import { runtimeMethod } from '../rpc/contract-method.ts';
import { createRuntimeHandlers } from '../rpc/runtime-server.ts';
import { attachRpcConnections, type RpcConnection } from '../rpc/socket-server.ts';
import { createAuthLimiter } from './auth-limiter.ts';
import { createRefusalLog } from './refusal-log.ts';
import { isLoopbackHost } from './web-address.ts';
import { createWebAuth, type WebAdmission, type WebAuth, type WebCredential, type WebSession } from './web-auth.ts';

/** Close code of a socket whose session was revoked or expired (its reason says which). */
export const WEB_CLOSE_SESSION_ENDED = 4001;

/** Path of the session check: `GET` with `Authorization: Bearer TOKEN` says whether the token still opens. */
export const WEB_SESSION_CHECK_PATH = '/api/session';

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
  /** The credential store; by default one on the host's SQLite store (sessions survive a restart). */
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
  /** A fresh one-time pairing URL usable for `ttlMs` (default 10 minutes), and when it expires. */
  pair(ttlMs?: number): { url: string; expiresAt: number };
  /** The paired sessions, with how many sockets each has open now. */
  sessions(): (WebSession & { sockets: number })[];
  /** Ends session `id`; its open sockets are cut at once (no close handshake awaited). */
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
function refuse(socket: Duplex, status: 400 | 401 | 403 | 404 | 429): void {
  const text = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    429: 'Too Many Requests',
  }[status];
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
  const auth = opts.auth ?? createWebAuth({ store: opts.host.store });
  const limiter = createAuthLimiter();
  const refusals = createRefusalLog(opts.host.log);
  const admissions = new WeakMap<RpcConnection, WebAdmission & { ok: true }>();
  const socketsBySession = new Map<string, Set<WebSocket>>();
  /**
   * Ends every socket of session `id`: a close frame with `code` (a page learns why), then the
   * socket is cut on the next turn, so a client that ignores close frames keeps nothing.
   */
  const cut = (id: string, code: number, reason: string): void => {
    for (const ws of socketsBySession.get(id) ?? []) {
      ws.close(code, reason);
      setImmediate(() => ws.terminate());
    }
    socketsBySession.delete(id);
  };
  const handlers = createRuntimeHandlers(opts.host, {
    runtimeId: opts.runtimeId ?? randomUUID(),
    browserOnly: true,
    extraMethods: (conn) => [
      runtimeMethod('web.session', () => {
        const admission = admissions.get(conn);
        if (!admission) return { sessionId: null };
        // Why: the token is handed over once, on the connection the pairing code opened.
        const token = admission.token;
        delete admission.token;
        return { sessionId: admission.session.id, ...(token ? { token } : {}) };
      }),
    ],
  });
  let port = opts.bind.port;
  const addressOf = (req: IncomingMessage): string => req.socket.remoteAddress ?? '';
  /** Checks a credential under the limits: the admission, or the status to refuse with. */
  const admitLimited = (
    req: IncomingMessage,
    credential: WebCredential | null,
  ): { admission: WebAdmission & { ok: true } } | { status: 401 | 429; reason: string } => {
    const address = addressOf(req);
    if (!limiter.allow(address)) {
      refusals.count('rate_limited');
      return { status: 429, reason: 'rate_limited' };
    }
    const admission = auth.admit(credential);
    if (!admission.ok) {
      limiter.failed(address);
      refusals.count(admission.reason);
      return { status: 401, reason: admission.reason };
    }
    limiter.succeeded(address);
    return { admission };
  };
  const checkSession = (req: IncomingMessage, res: ServerResponse): void => {
    const json = (status: number, body: unknown): void => {
      res
        .writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
    };
    if (req.method !== 'GET') json(405, { error: 'method' });
    // Why: a page of another origin must not learn whether a token works (fetch sends its Origin).
    else if (req.headers.origin !== undefined && !originAllowed(req.headers.origin, req, opts.bind.host, port))
      json(403, { error: 'origin' });
    else {
      const bearer = /^Bearer ([A-Za-z0-9_.-]{1,200})$/.exec(req.headers.authorization ?? '');
      const result = admitLimited(req, bearer?.[1] ? { kind: 'session', token: bearer[1] } : null);
      if ('status' in result) json(result.status, { ok: false, reason: result.reason });
      else json(200, { ok: true, sessionId: result.admission.session.id });
    }
  };
  const http = createServer((req, res) => {
    let pathname = '';
    try {
      pathname = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      // serveFile answers 400
    }
    if (pathname === WEB_SESSION_CHECK_PATH) checkSession(req, res);
    else void serveFile(opts.assets, req, res);
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WEB_MAX_MESSAGE_BYTES,
    handleProtocols: () => WEB_SUBPROTOCOL,
  });
  const pendingAdmission = new WeakMap<IncomingMessage, WebAdmission & { ok: true }>();
  attachRpcConnections(
    wss,
    handlers,
    'web',
    (conn, req, ws) => {
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
    },
    (conn) => {
      // Why: revocation and expiry bind on every frame, not only at the upgrade.
      const admission = admissions.get(conn);
      if (!admission) return false;
      const check = auth.check(admission.session.id);
      if (!check.ok) cut(admission.session.id, WEB_CLOSE_SESSION_ENDED, check.reason);
      return check.ok;
    },
  );
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
    const result = admitLimited(req, credentialOf(protocols));
    if ('status' in result) return refuse(socket, result.status);
    pendingAdmission.set(req, result.admission);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.bind.port, opts.bind.host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch((cause: unknown) => {
    refusals.close();
    throw new HostError(
      'ORCA_HOST_LISTEN',
      `cannot serve the web client on ${opts.bind.host}:${opts.bind.port}: ${(cause as Error).message}; pick another --web port (0 = any)`,
      { cause, context: { port: opts.bind.port } },
    );
  });
  const sweep = setInterval(() => {
    for (const id of auth.sweep()) cut(id, WEB_CLOSE_SESSION_ENDED, 'expired');
  }, WEB_SESSION_SWEEP_MS);
  sweep.unref();
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : opts.bind.port;
  const shownHost = isLoopbackHost(opts.bind.host)
    ? opts.bind.host.includes(':')
      ? `[${opts.bind.host}]`
      : opts.bind.host
    : '127.0.0.1';
  const origin = `http://${shownHost}:${port}`;
  opts.host.log.info({ origin }, 'web client served');
  const pair = (ttlMs?: number): { url: string; expiresAt: number } => {
    const { code, expiresAt } = auth.issuePairingCode(ttlMs);
    return { url: `${origin}/#pair=${code}`, expiresAt };
  };
  return {
    origin,
    port,
    auth,
    pairingUrl: () => pair().url,
    pair,
    sessions: () => auth.sessions().map((s) => ({ ...s, sockets: socketsBySession.get(s.id)?.size ?? 0 })),
    revoke(id) {
      const removed = auth.revoke(id);
      cut(id, WEB_CLOSE_SESSION_ENDED, 'revoked');
      return removed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        refusals.close();
        for (const client of wss.clients) client.terminate();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
export type { WebSession };
