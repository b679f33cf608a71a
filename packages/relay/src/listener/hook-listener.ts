import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  HOOK_HEADERS_TIMEOUT_MS,
  HOOK_KEEP_ALIVE_TIMEOUT_MS,
  HOOK_REQUEST_TIMEOUT_MS,
  HOOK_TIMEOUT_CHECK_INTERVAL_MS,
  MAX_HOOK_BODY_BYTES,
  MAX_HOOK_CONNECTIONS,
  SLOW_CLIENT_TIMEOUT_MS,
} from '../constants.ts';
import { RelayError } from '../errors.ts';
import { decodeHookBody, hookBodyKind } from './decode-body.ts';
import { HOOK_SOURCES, type HookSource } from './sources.ts';
import { tokenMatches } from './token.ts';
import { type DropReason, type HookEvent, type RelayClock, type RelayLog, silentLog, systemClock } from './types.ts';
import { toHookEvent, validateHookBody } from './validate.ts';

/** Options of {@link createHookListener}. */
export interface HookListenerOptions {
  /** Expected `X-Orca-Agent-Hook-Token`, compared byte-exact in constant time. */
  token: string;
  /** Preferred port; 0 or absent = any. `EADDRINUSE` on a preferred port falls back to 0. */
  port?: number;
  /**
   * Called with every valid event, before its 204 is sent. Throws are caught and logged. When it
   * returns a promise (any thenable; other results are ignored), the 204 waits for it (a store acknowledges only what it committed); a
   * rejection is logged and still answered 204 (fail open).
   */
  onEvent(event: HookEvent): unknown;
  /** Accepted sources (default {@link HOOK_SOURCES}). */
  sources?: readonly HookSource[];
  clock?: RelayClock;
  log?: RelayLog;
}

/** Counters of a listener: every refusal and drop is counted by reason. */
export interface HookListenerStats {
  accepted: number;
  dropped: Record<DropReason, number>;
}

/** A loopback hook listener. */
export interface HookListener {
  /** Bind 127.0.0.1. Rejects with `ORCA_RELAY_BIND_FAILED`. */
  start(): Promise<{ port: number; fallback: boolean }>;
  /** Close the server and every open socket. */
  stop(): Promise<void>;
  /** The bound port (0 before `start`). */
  readonly port: number;
  stats(): HookListenerStats;
}

function emptyDrops(): Record<DropReason, number> {
  return {
    connections: 0,
    route: 0,
    auth: 0,
    'too-large': 0,
    timeout: 0,
    json: 0,
    limits: 0,
    'pane-key': 0,
    'tab-mismatch': 0,
    field: 0,
    payload: 0,
    meta: 0,
    'content-type': 0,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Sockets that got a refusal. Why: Node parses pipelined requests as they arrive, so a request
 * sent after a refused one on the same socket would still reach the handler (and be stored) even
 * though its client never sees a 2xx; such requests are ignored and the socket is closed.
 */
const refusedSockets = new WeakSet<Socket>();

function reply(res: ServerResponse, status: number, close: boolean): void {
  const sock = res.socket;
  if (close && sock) refusedSockets.add(sock);
  if (res.headersSent || res.writableEnded) return;
  if (close) res.setHeader('Connection', 'close');
  res.statusCode = status;
  res.end();
  if (close) res.on('finish', () => sock?.destroySoon());
}

/**
 * Create the hook HTTP listener used by the host and inside guests: loopback only, 404 before
 * auth, constant-time token, 413 over the body cap, 408 for stalled bodies, fail-open 204.
 *
 * @example
 * const l = createHookListener({ token, port: 0, onEvent: (e) => ingest(e) });
 * const { port } = await l.start();
 * // curl -X POST -H "X-Orca-Agent-Hook-Token: $token" http://127.0.0.1:$port/hook/claude -d '{…}'
 * await l.stop();
 */
export function createHookListener(options: HookListenerOptions): HookListener {
  if (typeof options.token !== 'string' || options.token === '') {
    throw new RelayError('ORCA_RELAY_BAD_OPTIONS', 'createHookListener: expected a non-empty token');
  }
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const sources: ReadonlySet<string> = new Set(options.sources ?? HOOK_SOURCES);
  const dropped = emptyDrops();
  let accepted = 0;
  let boundPort = 0;
  const sockets = new Set<Socket>();

  const logHandlerFailure = (err: unknown): void => {
    log.error(`[hook-listener] onEvent failed: ${err instanceof Error ? err.message : String(err)}`);
  };
  const drop = (reason: DropReason): void => {
    dropped[reason] += 1;
    log.debug(`[hook-listener] dropped: ${reason}`);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (refusedSockets.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const source = pathname.startsWith('/hook/') ? pathname.slice('/hook/'.length) : '';
    if (req.method !== 'POST' || !sources.has(source)) {
      drop('route');
      reply(res, 404, true);
      return;
    }
    if (!tokenMatches(header(req, 'x-orca-agent-hook-token'), options.token)) {
      drop('auth');
      reply(res, 403, true);
      return;
    }
    const declared = header(req, 'content-length');
    if (declared !== undefined && Number(declared) > MAX_HOOK_BODY_BYTES) {
      drop('too-large');
      reply(res, 413, true);
      return;
    }
    // Why: only JSON and form bodies are parsed; anything else fails open (204) unread, and closes.
    if (hookBodyKind(header(req, 'content-type')) === undefined) {
      drop('content-type');
      reply(res, 204, true);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timer = clock.setTimeout(() => {
      if (done) return;
      done = true;
      drop('timeout');
      reply(res, 408, true);
      req.socket.destroySoon();
    }, SLOW_CLIENT_TIMEOUT_MS);
    const finish = (): void => {
      done = true;
      clock.clearTimeout(timer);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_HOOK_BODY_BYTES) {
        finish();
        drop('too-large');
        reply(res, 413, true);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => finish());
    req.on('close', () => {
      if (!done) finish();
    });
    req.on('end', () => {
      if (done) return;
      finish();
      if (refusedSockets.has(req.socket)) return;
      const decoded = decodeHookBody({
        contentType: header(req, 'content-type'),
        meta: header(req, 'x-orca-agent-hook-meta'),
        metaEncoding: header(req, 'x-orca-agent-hook-meta-encoding'),
        body: Buffer.concat(chunks, size),
      });
      const valid = decoded.ok ? validateHookBody(decoded.body) : decoded;
      if (!valid.ok) {
        drop(valid.reason);
        reply(res, 204, false);
        return;
      }
      accepted += 1;
      let handled: unknown;
      try {
        handled = options.onEvent(toHookEvent(source as HookSource, valid.event, clock.now()));
      } catch (err) {
        logHandlerFailure(err);
      }
      if (!isThenable(handled)) {
        reply(res, 204, false);
        return;
      }
      handled.then(
        () => reply(res, 204, false),
        (err: unknown) => {
          logHandlerFailure(err);
          reply(res, 204, false);
        },
      );
    });
  };

  const server: Server = createServer(
    {
      headersTimeout: HOOK_HEADERS_TIMEOUT_MS,
      requestTimeout: HOOK_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: HOOK_TIMEOUT_CHECK_INTERVAL_MS,
    },
    (req, res) => {
      try {
        handle(req, res);
      } catch (err) {
        log.error(`[hook-listener] request failed: ${err instanceof Error ? err.message : String(err)}`);
        reply(res, 204, true);
      }
    },
  );
  server.keepAliveTimeout = HOOK_KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = MAX_HOOK_CONNECTIONS;
  server.on('drop', () => drop('connections'));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    if (timedOut) drop('timeout');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
    // Why: end() only half-closes; a client that never reads would keep the socket (and a cap slot).
    socket.destroySoon();
  });

  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (err: Error): void => {
        server.off('listening', onListening);
        reject(err);
      };
      const onListening = (): void => {
        server.off('error', onError);
        const addr = server.address();
        resolve(typeof addr === 'object' && addr !== null ? addr.port : 0);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, '127.0.0.1');
    });

  return {
    async start() {
      const preferred = options.port ?? 0;
      try {
        boundPort = await listen(preferred);
        return { port: boundPort, fallback: false };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EADDRINUSE' || preferred <= 0) {
          throw new RelayError(
            'ORCA_RELAY_BIND_FAILED',
            `hook listener could not bind 127.0.0.1:${preferred} (${code})`,
            {
              cause: err,
              context: { port: preferred, code },
            },
          );
        }
      }
      try {
        boundPort = await listen(0);
        return { port: boundPort, fallback: true };
      } catch (err) {
        throw new RelayError('ORCA_RELAY_BIND_FAILED', 'hook listener fallback bind on 127.0.0.1:0 failed', {
          cause: err,
        });
      }
    },
    stop() {
      return new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
      });
    },
    get port() {
      return boundPort;
    },
    stats() {
      return { accepted, dropped: { ...dropped } };
    },
  };
}
