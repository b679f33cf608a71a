import { systemClock, type WireClock } from '../clock.ts';
import { WireError } from '../errors.ts';
import { RELAY_LIMITS } from '../limits.ts';
import type { ReceivePolicy } from '../receive-policy.ts';
import { RelayFrameDecoder, type RelayRejectReason } from './decoder.ts';
import { encodeRelayFrame, nextRelaySeq, RelayFrameType, type RelayFrameTypeNumber, relaySeqAfter } from './frame.ts';
import { type JsonRpcMessage, type JsonRpcRejectReason, parseJsonRpcPayload } from './jsonrpc-message.ts';
import { fromJsonRpcError, JSONRPC_ERROR_CODES, LinkError, type LinkErrorCode, toJsonRpcError } from './link-errors.ts';

/** Everything the channel rejects, by reason. */
export type RelayChannelRejectReason = RelayRejectReason | JsonRpcRejectReason;

/** Options of {@link createRelayChannel}. */
export interface RelayChannelOptions {
  /** Takes one whole frame; `false` = backpressured (the bytes are still taken). */
  write(bytes: Uint8Array): boolean;
  /** `'drop'`: count a bad frame and keep the link. `'close'`: dispose the link with the reason. */
  policy: ReceivePolicy;
  clock?: WireClock;
  /** Bytes already read past the sentinel; fed in a microtask, ahead of any later `receive`. */
  initialBytes?: Uint8Array;
  requestTimeoutMs?: number;
  keepaliveMs?: number;
  deadAfterMs?: number;
  deadAfterTimeouts?: number;
  maxPayloadBytes?: number;
}

/** Per-call options of `request`. */
export interface RelayRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Counters of a relay channel. */
export interface RelayChannelStats {
  accepted: number;
  rejected: number;
  byReason: Partial<Record<RelayChannelRejectReason, number>>;
  /** Handshake frames (decoded, unused by protocol 0.1.0). */
  ignoredHandshakes: number;
  /** Responses for ids no longer pending (timed out, cancelled, unknown). */
  lateResponses: number;
  framesSent: number;
}

type RequestHandler = (params: unknown, context: { signal: AbortSignal }) => unknown;
type NotificationHandler = (params: unknown) => void;

/** A JSON-RPC 2.0 link over relay frames. */
export interface RelayChannel {
  /** Feeds bytes read from the transport (after the sentinel). */
  receive(bytes: Uint8Array): void;
  /** Sends anything queued before start, then begins keepalives and dead-link checks. */
  start(): void;
  request(method: string, params?: unknown, options?: RelayRequestOptions): Promise<unknown>;
  notify(method: string, params?: unknown): void;
  onRequest(method: string, handler: RequestHandler): void;
  onNotification(method: string, handler: NotificationHandler): void;
  /** False from a `false` write until {@link RelayChannel.drained}. */
  readonly writable: boolean;
  /** The owner reports the transport drained; fires `onDrain` callbacks. */
  drained(): void;
  onDrain(cb: () => void): () => void;
  /** Fires exactly once, with the reason. */
  onDispose(cb: (reason: LinkError) => void): void;
  dispose(): void;
  readonly disposed: boolean;
  stats(): RelayChannelStats;
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: unknown;
  cleanup(): void;
}

/**
 * Creates a relay channel: JSON-RPC 2.0 over relay frames with seq/ack keepalives, request
 * timeouts with `rpc.cancel`, and dead-link detection. Nothing is sent before `start()`; the
 * channel never queues frames for backpressure (it reports it through `writable`/`onDrain`).
 *
 * @example
 * const channel = createRelayChannel({ write: (b) => child.stdin.write(b), policy: 'close' });
 * channel.onRequest('status.get', () => ({ ok: true }));
 * child.stdout.on('data', (b) => channel.receive(b));
 * channel.start();
 * const result = await channel.request('agent.hook', event);
 */
export function createRelayChannel(options: RelayChannelOptions): RelayChannel {
  const clock = options.clock ?? systemClock;
  const requestTimeoutMs = options.requestTimeoutMs ?? RELAY_LIMITS.requestTimeoutMs;
  const keepaliveMs = options.keepaliveMs ?? RELAY_LIMITS.keepaliveMs;
  const deadAfterMs = options.deadAfterMs ?? RELAY_LIMITS.deadAfterMs;
  const deadAfterTimeouts = options.deadAfterTimeouts ?? RELAY_LIMITS.deadAfterTimeouts;
  const decoder = new RelayFrameDecoder({ maxPayloadBytes: options.maxPayloadBytes ?? RELAY_LIMITS.maxPayloadBytes });
  const encoder = new TextEncoder();

  const stats: RelayChannelStats = {
    accepted: 0,
    rejected: 0,
    byReason: {},
    ignoredHandshakes: 0,
    lateResponses: 0,
    framesSent: 0,
  };
  const requestHandlers = new Map<string, RequestHandler>();
  const notificationHandlers = new Map<string, NotificationHandler>();
  const pending = new Map<number, Pending>();
  const inflight = new Map<string, AbortController>();
  const drainCallbacks = new Set<() => void>();
  const disposeCallbacks: Array<(reason: LinkError) => void> = [];
  const outbox: Array<{ type: RelayFrameTypeNumber; payload: Uint8Array }> = [];
  // Why: records of frames the peer has not acked yet, oldest first (seq and time both increase).
  const unacked: Array<{ seq: number; sentAt: number }> = [];
  let unackedHead = 0;

  let started = false;
  let disposedWith: LinkError | undefined;
  let writable = true;
  let sendSeq = 0;
  let highestReceived = 0;
  let lastReceivedAt = clock.now();
  let nextId = 1;
  let consecutiveTimeouts = 0;
  let keepaliveTimer: unknown;
  let initialPending = options.initialBytes !== undefined;
  const heldReceives: Uint8Array[] = [];

  function reject(reason: RelayChannelRejectReason): void {
    stats.rejected++;
    stats.byReason[reason] = (stats.byReason[reason] ?? 0) + 1;
    if (options.policy === 'close') fail('ORCA_WIRE_CONNECTION_LOST', `relay peer sent a bad frame: ${reason}`);
  }

  function fail(code: LinkErrorCode, message: string): void {
    if (disposedWith) return;
    const error = new LinkError(code, message);
    disposedWith = error;
    if (keepaliveTimer !== undefined) clock.clearTimeout(keepaliveTimer);
    for (const [, p] of pending) p.cleanup();
    const rejected = [...pending.values()];
    pending.clear();
    for (const p of rejected) p.reject(error);
    for (const [, controller] of inflight) controller.abort(error);
    inflight.clear();
    outbox.length = 0;
    for (const cb of disposeCallbacks) cb(error);
  }

  function sendFrame(type: RelayFrameTypeNumber, payload: Uint8Array): void {
    if (disposedWith) return;
    if (!started) {
      outbox.push({ type, payload });
      return;
    }
    sendSeq = nextRelaySeq(sendSeq);
    const bytes = encodeRelayFrame({ type, seq: sendSeq, ack: highestReceived, payload });
    unacked.push({ seq: sendSeq, sentAt: clock.now() });
    if (unacked.length - unackedHead > RELAY_LIMITS.maxUnackedRecords) unackedHead++;
    compactUnacked();
    stats.framesSent++;
    let ok: boolean;
    try {
      ok = options.write(bytes);
    } catch (cause) {
      fail(
        'ORCA_WIRE_CONNECTION_LOST',
        `relay transport write failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
      return;
    }
    if (!ok) writable = false;
  }

  function compactUnacked(): void {
    if (unackedHead > 1024 && unackedHead * 2 > unacked.length) {
      unacked.splice(0, unackedHead);
      unackedHead = 0;
    }
  }

  function sendMessage(message: Record<string, unknown>): void {
    sendFrame(RelayFrameType.Regular, encoder.encode(JSON.stringify({ jsonrpc: '2.0', ...message })));
  }

  function checkDead(): boolean {
    const now = clock.now();
    const oldest = unacked[unackedHead];
    if (now - lastReceivedAt > deadAfterMs && oldest !== undefined && now - oldest.sentAt > deadAfterMs) {
      fail('ORCA_WIRE_CONNECTION_LOST', `relay peer silent for ${now - lastReceivedAt} ms with frames un-acked`);
      return true;
    }
    return false;
  }

  function scheduleKeepalive(): void {
    keepaliveTimer = clock.setTimeout(() => {
      keepaliveTimer = undefined;
      if (disposedWith || checkDead()) return;
      sendFrame(RelayFrameType.KeepAlive, new Uint8Array(0));
      if (!disposedWith) scheduleKeepalive();
    }, keepaliveMs);
  }

  function onAck(ack: number): void {
    while (unackedHead < unacked.length) {
      const record = unacked[unackedHead];
      if (record === undefined || relaySeqAfter(record.seq, ack)) break;
      unackedHead++;
    }
    compactUnacked();
  }

  function respond(
    id: number | string,
    body: { result: unknown } | { error: ReturnType<typeof toJsonRpcError> },
  ): void {
    try {
      sendMessage({ id, ...body });
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      sendMessage({
        id,
        error: { code: JSONRPC_ERROR_CODES.Internal, message: err.message, data: { nodeCode: null } },
      });
    }
  }

  function handleRequest(id: number | string, method: string, params: unknown): void {
    const handler = requestHandlers.get(method);
    if (!handler) {
      respond(id, {
        error: {
          code: JSONRPC_ERROR_CODES.MethodNotFound,
          message: `Method not found: ${method}`,
          data: { nodeCode: null },
        },
      });
      return;
    }
    const controller = new AbortController();
    const key = String(id);
    inflight.set(key, controller);
    Promise.resolve()
      .then(() => handler(params, { signal: controller.signal }))
      .then(
        (result) => {
          if (inflight.get(key) === controller) inflight.delete(key);
          respond(id, { result: result === undefined ? null : result });
        },
        (err: unknown) => {
          if (inflight.get(key) === controller) inflight.delete(key);
          respond(id, { error: toJsonRpcError(err) });
        },
      );
  }

  function handleMessage(message: JsonRpcMessage): void {
    switch (message.kind) {
      case 'request':
        handleRequest(message.id, message.method, message.params);
        return;
      case 'notification': {
        if (message.method === 'rpc.cancel') {
          const id = (message.params as { id?: unknown } | undefined)?.id;
          if (typeof id === 'number' || typeof id === 'string') inflight.get(String(id))?.abort();
          return;
        }
        notificationHandlers.get(message.method)?.(message.params);
        return;
      }
      case 'result':
      case 'error': {
        const p = typeof message.id === 'number' ? pending.get(message.id) : undefined;
        if (!p || typeof message.id !== 'number') {
          stats.lateResponses++;
          return;
        }
        pending.delete(message.id);
        p.cleanup();
        consecutiveTimeouts = 0;
        if (message.kind === 'result') p.resolve(message.result);
        else p.reject(fromJsonRpcError(message.error));
      }
    }
  }

  function feed(bytes: Uint8Array): void {
    if (disposedWith) return;
    lastReceivedAt = clock.now();
    const { frames, rejects } = decoder.push(bytes);
    for (const r of rejects) {
      reject(r.reason);
      if (disposedWith) return;
    }
    for (const frame of frames) {
      if (disposedWith) return;
      if (frame.type === RelayFrameType.Handshake) {
        stats.ignoredHandshakes++;
        continue;
      }
      onAck(frame.ack);
      if (highestReceived === 0 || relaySeqAfter(frame.seq, highestReceived)) highestReceived = frame.seq;
      if (frame.type === RelayFrameType.KeepAlive) {
        stats.accepted++;
        continue;
      }
      const parsed = parseJsonRpcPayload(frame.payload);
      if (!parsed.ok) {
        reject(parsed.reason);
        continue;
      }
      stats.accepted++;
      handleMessage(parsed.value);
    }
  }

  if (options.initialBytes !== undefined) {
    const initial = options.initialBytes;
    queueMicrotask(() => {
      initialPending = false;
      feed(initial);
      for (const held of heldReceives.splice(0)) feed(held);
    });
  }

  return {
    receive(bytes) {
      if (initialPending) heldReceives.push(bytes);
      else feed(bytes);
    },
    start() {
      if (started || disposedWith) return;
      started = true;
      lastReceivedAt = clock.now();
      for (const { type, payload } of outbox.splice(0)) sendFrame(type, payload);
      scheduleKeepalive();
    },
    request(method, params, requestOptions = {}) {
      if (disposedWith) return Promise.reject(disposedWith);
      const signal = requestOptions.signal;
      if (signal?.aborted) return Promise.reject(new LinkError('ORCA_WIRE_CANCELLED', `request ${method} was aborted`));
      const id = nextId++;
      return new Promise<unknown>((resolve, rejectPromise) => {
        const onAbort = () => {
          if (!pending.delete(id)) return;
          entry.cleanup();
          rejectPromise(new LinkError('ORCA_WIRE_CANCELLED', `request ${method} was aborted`));
          sendMessage({ method: 'rpc.cancel', params: { id } });
        };
        const entry: Pending = {
          resolve,
          reject: rejectPromise,
          timer: clock.setTimeout(() => {
            if (!pending.delete(id)) return;
            entry.cleanup();
            rejectPromise(new LinkError('ORCA_WIRE_TIMEOUT', `request ${method} timed out`));
            sendMessage({ method: 'rpc.cancel', params: { id } });
            consecutiveTimeouts++;
            if (consecutiveTimeouts >= deadAfterTimeouts) {
              fail('ORCA_WIRE_CONNECTION_LOST', `${consecutiveTimeouts} consecutive relay requests timed out`);
            }
          }, requestOptions.timeoutMs ?? requestTimeoutMs),
          cleanup: () => {
            clock.clearTimeout(entry.timer);
            signal?.removeEventListener('abort', onAbort);
          },
        };
        pending.set(id, entry);
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          sendMessage({ id, method, params });
        } catch (err) {
          pending.delete(id);
          entry.cleanup();
          rejectPromise(err);
        }
      });
    },
    notify(method, params) {
      sendMessage(params === undefined ? { method } : { method, params });
    },
    onRequest(method, handler) {
      requestHandlers.set(method, handler);
    },
    onNotification(method, handler) {
      notificationHandlers.set(method, handler);
    },
    get writable() {
      return writable && !disposedWith;
    },
    drained() {
      writable = true;
      for (const cb of [...drainCallbacks]) cb();
    },
    onDrain(cb) {
      drainCallbacks.add(cb);
      return () => drainCallbacks.delete(cb);
    },
    onDispose(cb) {
      if (disposedWith) {
        const reason = disposedWith;
        queueMicrotask(() => cb(reason));
        return;
      }
      disposeCallbacks.push(cb);
    },
    dispose() {
      fail('ORCA_WIRE_DISPOSED', 'relay channel disposed');
    },
    get disposed() {
      return disposedWith !== undefined;
    },
    stats() {
      return { ...stats, byReason: { ...stats.byReason } };
    },
  };
}
