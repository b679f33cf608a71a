import { connect } from 'node:net';
import { createRelayChannel, type LinkError, RemoteError } from '@orca/wire/relay-frames';
import { z } from 'zod';
import {
  ATTACH_PAGE_CHARS,
  KEEPER_CLOSE_FLUSH_MS,
  KEEPER_DEAD_AFTER_MS,
  KEEPER_KEEPALIVE_MS,
  KEEPER_MAX_PAYLOAD_BYTES,
  KEEPER_PROTOCOL_VERSION,
  KEEPER_REQUEST_TIMEOUT_MS,
  WRITE_CHUNK_CHARS,
} from './constants.ts';
import type { KeptExit, KeptPaneSpec } from './kept-pane.ts';
import { type AttachResult, KEEPER_EVENTS, KEEPER_METHODS, type KeeperWelcome } from './protocol.ts';

/** A keeper refused a request (`code` from `KEEPER_REFUSAL_CODES`) or the link failed (`link_*`). */
export class KeeperCallError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'KeeperCallError';
    this.code = code;
  }
}

const ExitSchema = z.object({ code: z.number().nullable(), signal: z.number().nullable(), at: z.number() });
const DataEvent = z.object({ id: z.string(), to: z.number(), data: z.string() });
const ExitEvent = ExitSchema.extend({ id: z.string() });
const WelcomeSchema = z.object({
  protocol: z.number(),
  version: z.string(),
  pid: z.number(),
  capabilities: z.array(z.string()),
  panes: z.array(
    z.object({
      id: z.string(),
      pid: z.number(),
      file: z.string(),
      args: z.array(z.string()),
      cwd: z.string(),
      cols: z.number(),
      rows: z.number(),
      startedAt: z.number(),
      position: z.number(),
      exit: ExitSchema.optional(),
    }),
  ),
});
const AttachSchema = z.object({
  from: z.number(),
  to: z.number(),
  data: z.string(),
  truncated: z.boolean(),
  more: z.boolean().optional(),
  modes: z.array(z.number()),
  exit: ExitSchema.optional(),
});

/** The host's side of the keeper link. */
export interface KeeperClient {
  readonly welcome: KeeperWelcome;
  spawn(spec: KeptPaneSpec): Promise<{ pid: number }>;
  attach(id: string, from: number): Promise<AttachResult>;
  forget(id: string): Promise<boolean>;
  /** Kills every pane and ends the keeper. */
  stopKeeper(): Promise<void>;
  write(id: string, data: string): void;
  resize(id: string, cols: number, rows: number): void;
  kill(id: string, signal?: string): void;
  flow(id: string, paused: boolean): void;
  onData(listener: (id: string, data: string, to: number) => void): void;
  onExit(listener: (id: string, exit: KeptExit) => void): void;
  /** The link ended (the keeper died or closed, or {@link close}); fires once. */
  onClose(listener: (why: string) => void): void;
  readonly closed: boolean;
  close(): void;
}

function callError(error: unknown): KeeperCallError {
  if (error instanceof RemoteError) {
    return new KeeperCallError(typeof error.nodeCode === 'string' ? error.nodeCode : 'keeper_error', error.message);
  }
  const code = (error as LinkError | undefined)?.code;
  return new KeeperCallError(typeof code === 'string' ? `link_${code}` : 'link_failed', (error as Error).message);
}

/**
 * Connects to the keeper at `socket` and says hello as the host `host`; rejects with a
 * {@link KeeperCallError} (`protocol_mismatch`, `keeper_busy`, `link_*`) when the keeper will not
 * have it, or the socket does not answer.
 *
 * @example
 * const keeper = await connectKeeper('/d/keeper/keeper.sock', { pid: process.pid, version: '0.2.0' });
 * const { pid } = await keeper.spawn({ id: 'pane-1', file: '/bin/sh', args: [], cwd: '/', env: {}, cols: 80, rows: 24 });
 */
export function connectKeeper(
  socketPath: string,
  host: { pid: number; version: string; vacancy?: { path: string; content: Record<string, unknown> } },
): Promise<KeeperClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const channel = createRelayChannel({
      write: (bytes) => socket.write(bytes),
      policy: 'close',
      keepaliveMs: KEEPER_KEEPALIVE_MS,
      deadAfterMs: KEEPER_DEAD_AFTER_MS,
      requestTimeoutMs: KEEPER_REQUEST_TIMEOUT_MS,
      maxPayloadBytes: KEEPER_MAX_PAYLOAD_BYTES,
    });
    const dataListeners: ((id: string, data: string, to: number) => void)[] = [];
    const exitListeners: ((id: string, exit: KeptExit) => void)[] = [];
    const closeListeners: ((why: string) => void)[] = [];
    let closed = false;
    let why = 'closed';
    socket.on('data', (chunk: Buffer) => channel.receive(new Uint8Array(chunk)));
    socket.on('drain', () => channel.drained());
    socket.on('error', (error) => {
      why = error.message;
      channel.dispose();
    });
    socket.on('close', () => channel.dispose());
    channel.onDispose((reason) => {
      // Why: a link closed by its owner ends the socket instead, so keys it wrote last (a prompt's
      // submit key sent as the host stops) reach the keeper; a stuck peer is cut off after a grace.
      if (socket.writableEnded) setTimeout(() => socket.destroy(), KEEPER_CLOSE_FLUSH_MS).unref();
      else socket.destroy();
      if (closed) return;
      closed = true;
      if (why === 'closed') why = reason.message;
      for (const l of closeListeners) l(why);
    });
    channel.onNotification(KEEPER_EVENTS.data, (params) => {
      const e = DataEvent.safeParse(params);
      if (e.success) for (const l of dataListeners) l(e.data.id, e.data.data, e.data.to);
    });
    channel.onNotification(KEEPER_EVENTS.exit, (params) => {
      const e = ExitEvent.safeParse(params);
      if (e.success)
        for (const l of exitListeners) l(e.data.id, { code: e.data.code, signal: e.data.signal, at: e.data.at });
    });
    const request = async <T>(method: string, params: unknown, schema: z.ZodType<T>): Promise<T> => {
      try {
        const parsed = schema.safeParse(await channel.request(method, params));
        if (!parsed.success)
          throw new KeeperCallError(
            'keeper_bad_answer',
            `the keeper answered ${method} in a shape this host does not read`,
          );
        return parsed.data;
      } catch (error) {
        throw error instanceof KeeperCallError ? error : callError(error);
      }
    };
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      channel.start();
      const { vacancy, ...who } = host;
      request(
        KEEPER_METHODS.hello,
        { protocol: KEEPER_PROTOCOL_VERSION, host: who, ...(vacancy ? { vacancy } : {}) },
        WelcomeSchema,
      ).then(
        (welcome) => {
          resolve({
            welcome,
            spawn: (spec) => request(KEEPER_METHODS.spawn, spec, z.object({ pid: z.number() })),
            attach: async (id, from) => {
              if (!welcome.capabilities.includes('pty.attach.pages.v1')) {
                return request(KEEPER_METHODS.attach, { id, from }, AttachSchema);
              }
              // Why: page by page, so no answer passes the frame limit; the last page subscribes.
              const pages: z.infer<typeof AttachSchema>[] = [];
              let at = from;
              for (;;) {
                const page = await request(
                  KEEPER_METHODS.attach,
                  { id, from: at, maxChars: ATTACH_PAGE_CHARS },
                  AttachSchema,
                );
                // Why: output dropped between two pages (the ring was full, or the pane ended and
                // kept only its tail) makes a gap; what came before it is no longer a whole screen.
                if (pages.length > 0 && (page.truncated || page.from !== at)) pages.length = 0;
                pages.push(page);
                if (!page.more || page.to <= at) break;
                at = page.to;
              }
              const first = pages[0] as z.infer<typeof AttachSchema>;
              const last = pages[pages.length - 1] as z.infer<typeof AttachSchema>;
              const { more: _more, ...rest } = last;
              return {
                ...rest,
                from: first.from,
                truncated: first.truncated || first.from !== from,
                data: pages.map((p) => p.data).join(''),
              };
            },
            forget: async (id) =>
              (await request(KEEPER_METHODS.forget, { id }, z.object({ forgotten: z.boolean() }))).forgotten,
            stopKeeper: async () => {
              await request(KEEPER_METHODS.stop, {}, z.object({ stopping: z.boolean() }));
            },
            write: (id, data) => {
              // Why: a long paste would pass the frame limit in one; a cut never splits a surrogate pair.
              let at = 0;
              while (at < data.length) {
                let end = Math.min(data.length, at + WRITE_CHUNK_CHARS);
                const last = data.charCodeAt(end - 1);
                if (end < data.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
                channel.notify(KEEPER_METHODS.write, { id, data: data.slice(at, end) });
                at = end;
              }
            },
            resize: (id, cols, rows) => channel.notify(KEEPER_METHODS.resize, { id, cols, rows }),
            kill: (id, signal) => channel.notify(KEEPER_METHODS.kill, { id, ...(signal ? { signal } : {}) }),
            flow: (id, paused) => channel.notify(KEEPER_METHODS.flow, { id, paused }),
            onData: (l) => void dataListeners.push(l),
            onExit: (l) => void exitListeners.push(l),
            onClose: (l) => void closeListeners.push(l),
            get closed() {
              return closed;
            },
            close: () => {
              if (!socket.destroyed) socket.end();
              channel.dispose();
            },
          });
        },
        (error: unknown) => {
          reject(error);
          channel.dispose();
        },
      );
    });
    channel.onDispose(() => {
      // Why: a link that ends before the hello answered rejects the connect (once; later calls are no-ops).
      reject(
        connected
          ? new KeeperCallError('link_closed', `the keeper at ${socketPath} closed the link: ${why}`)
          : new KeeperCallError('link_connect', `cannot reach the keeper at ${socketPath}: ${why}`),
      );
    });
  });
}
