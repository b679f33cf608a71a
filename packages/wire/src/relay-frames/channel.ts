import { systemClock } from '../clock.ts';
import { RELAY_LIMITS } from '../limits.ts';
import type {
  NotificationHandler,
  RelayChannel,
  RelayChannelOptions,
  RelayChannelRejectReason,
  RelayChannelStats,
} from './channel-types.ts';
import { RelayFrameDecoder } from './decoder.ts';
import { encodeRelayFrame, nextRelaySeq, RelayFrameType, type RelayFrameTypeNumber, relaySeqAfter } from './frame.ts';
import { type JsonRpcMessage, parseJsonRpcPayload } from './jsonrpc-message.ts';
import { fromJsonRpcError, LinkError, type LinkErrorCode } from './link-errors.ts';
import { createRequestResponder } from './request-responder.ts';
import { UnackedLedger } from './unacked-ledger.ts';

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
  const notificationHandlers = new Map<string, NotificationHandler>();
  const pending = new Map<number, Pending>();
  const drainCallbacks = new Set<() => void>();
  const disposeCallbacks: Array<(reason: LinkError) => void> = [];
  const outbox: Array<{ type: RelayFrameTypeNumber; payload: Uint8Array }> = [];
  const unacked = new UnackedLedger();
  const responder = createRequestResponder(sendMessage);

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
    responder.abortAll(error);
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
    unacked.sent(sendSeq, clock.now());
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

  function sendMessage(message: Record<string, unknown>): number {
    const payload = encoder.encode(JSON.stringify({ jsonrpc: '2.0', ...message }));
    sendFrame(RelayFrameType.Regular, payload);
    return payload.length;
  }

  function checkDead(): boolean {
    const now = clock.now();
    const oldestSentAt = unacked.oldestSentAt();
    if (now - lastReceivedAt > deadAfterMs && oldestSentAt !== undefined && now - oldestSentAt > deadAfterMs) {
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

  function handleMessage(message: JsonRpcMessage): void {
    switch (message.kind) {
      case 'request':
        responder.handle(message.id, message.method, message.params);
        return;
      case 'notification': {
        if (message.method === 'rpc.cancel') {
          responder.cancel((message.params as { id?: unknown } | undefined)?.id);
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
      unacked.acked(frame.ack);
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
      return sendMessage(params === undefined ? { method } : { method, params });
    },
    onRequest(method, handler) {
      responder.onRequest(method, handler);
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
