import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MODEL_REQUEST_MAX_BYTES } from '../limits.ts';
import type { RecordedRequest, Reply, ReplyPicker } from './scenario.ts';

/** What a vendor adapter decides about one request. */
export interface Classified {
  readonly role: RecordedRequest['role'];
  readonly userTurns: readonly string[];
}

/** The vendor-specific half of a model stand-in. */
export interface VendorAdapter {
  readonly name: string;
  /** Main turn, auxiliary (title, routing, …) or other (health checks, counts). */
  classify(method: string, path: string, body: unknown): Classified;
  /**
   * Answers a main request with the scripted reply. Resolving to `'again'` means the adapter sent
   * a step the vendor's client needs first (Claude's ToolSearch for a deferred tool) and the same
   * reply answers the next main request.
   */
  answer(res: ServerResponse, reply: Reply, request: RecordedRequest): Promise<'again' | undefined>;
  /** Answers auxiliary and other requests. */
  answerOther(res: ServerResponse, request: RecordedRequest): Promise<void>;
}

/** A running model stand-in on 127.0.0.1. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Main requests whose newest user turn contains `needle`. */
  countCarrying(needle: string): number;
  /** Resolves with the first request (past or future) passing `test`; rejects after `timeoutMs`. */
  waitFor(test: (r: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest>;
  /** Replaces the reply picker (the reply index keeps counting). */
  setReplies(picker: ReplyPicker): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MODEL_REQUEST_MAX_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MODEL_REQUEST_MAX_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}

/** JSON of a request body, or null when absent or not JSON (never throws). */
export function parseJsonBody(raw: Buffer | null): unknown {
  if (!raw || raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * Starts a loopback-only model stand-in speaking `adapter`'s API, answering main requests from
 * `picker` and recording every request.
 */
export async function startModelServer(
  adapter: VendorAdapter,
  picker: ReplyPicker,
  opts: { now?: () => number } = {},
): Promise<ModelServer> {
  const now = opts.now ?? Date.now;
  const requests: RecordedRequest[] = [];
  const waiters = new Set<{ test: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }>();
  let pick = picker;
  let mainCount = 0;
  let replay: Reply | null = null;
  const sockets = new Set<import('node:net').Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const body = parseJsonBody(raw);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let classified: Classified;
    try {
      classified = adapter.classify(method, path, body);
    } catch {
      classified = { role: 'other', userTurns: [] };
    }
    const replyIndex = classified.role === 'main' ? mainCount++ : undefined;
    const recorded: RecordedRequest = {
      at: now(),
      method,
      path,
      body,
      role: classified.role,
      userTurns: classified.userTurns,
      ...(replyIndex !== undefined ? { replyIndex } : {}),
    };
    requests.push(recorded);
    for (const w of waiters) {
      if (w.test(recorded)) {
        waiters.delete(w);
        w.resolve(recorded);
      }
    }
    if (replyIndex !== undefined) {
      const reply = replay ?? pick(replyIndex, recorded);
      replay = null;
      if ((await adapter.answer(res, reply, recorded)) === 'again') replay = reply;
    } else await adapter.answerOther(res, recorded);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Why: loopback only — a stand-in must never be reachable from another machine.
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    countCarrying: (needle) =>
      requests.filter((r) => r.role === 'main' && (r.userTurns.at(-1) ?? '').includes(needle)).length,
    waitFor(test, timeoutMs) {
      const past = requests.find(test);
      if (past) return Promise.resolve(past);
      return new Promise((resolve, reject) => {
        const entry = {
          test,
          resolve: (r: RecordedRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(entry);
          reject(new Error(`${adapter.name} stand-in: no matching request within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(entry);
      });
    },
    setReplies(next) {
      pick = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
