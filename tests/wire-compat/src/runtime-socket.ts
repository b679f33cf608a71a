import { randomUUID } from 'node:crypto';
import type * as Rpc from '@orca/wire/rpc';
import WebSocket from 'ws';

/** A build's response-envelope reader (`@orca/wire/rpc` `parseResponse` of that build). */
export type ParseResponse = typeof Rpc.parseResponse;

/** A failure envelope, thrown by {@link RuntimeSocket.call}. */
export class RpcFailureError extends Error {
  readonly code: string;
  constructor(failure: Rpc.RpcFailure) {
    super(`${failure.error.code}: ${failure.error.message}`);
    this.code = failure.error.code;
  }
}

/** One WebSocket connection to a host's `runtime.sock`, read through one build's envelope reader. */
export interface RuntimeSocket {
  /** A unary call; resolves with the whole success envelope. */
  call(method: string, params?: unknown): Promise<Rpc.RpcSuccess>;
  /** A streaming call: `onEvent` gets each event's `result`; resolves with the final result. */
  stream(method: string, params: unknown, onEvent: (result: unknown) => void): Promise<unknown>;
  sendBinary(bytes: Uint8Array): boolean;
  onBinary(listener: (bytes: Uint8Array) => void): void;
  /** Text messages the build's `parseResponse` refused (a compatible host sends none). */
  readonly refusedEnvelopes: string[];
  close(): Promise<void>;
}

/**
 * Opens `ws+unix://<socketPath>:/` and speaks the runtime RPC with hand-built request envelopes
 * (`{id, method, params?}`, the shape every build's `parseRequest` accepts) and the given build's
 * `parseResponse`. Binary messages are terminal-stream frames.
 */
export async function openRuntimeSocket(socketPath: string, parseResponse: ParseResponse): Promise<RuntimeSocket> {
  const socket = new WebSocket(`ws+unix://${socketPath}:/`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  type Pending = { resolve(v: Rpc.RpcSuccess): void; reject(e: unknown): void; onEvent?: (r: unknown) => void };
  const pending = new Map<string, Pending>();
  const binaryListeners: Array<(bytes: Uint8Array) => void> = [];
  const refusedEnvelopes: string[] = [];
  socket.on('message', (data, isBinary) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) {
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      for (const listener of binaryListeners) listener(bytes);
      return;
    }
    const text = buf.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      refusedEnvelopes.push(text);
      return;
    }
    const parsed = parseResponse(json);
    if (!parsed.ok) {
      refusedEnvelopes.push(text);
      return;
    }
    const envelope = parsed.value;
    if ('_keepalive' in envelope) return;
    const waiter = pending.get(envelope.id);
    if (!waiter) return;
    if (envelope.ok && envelope.streaming) {
      waiter.onEvent?.(envelope.result);
      return;
    }
    pending.delete(envelope.id);
    if (envelope.ok) waiter.resolve(envelope);
    else waiter.reject(new RpcFailureError(envelope));
  });
  socket.on('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the host closed the connection'));
    pending.clear();
  });
  const send = (method: string, params: unknown, onEvent?: (r: unknown) => void): Promise<Rpc.RpcSuccess> =>
    new Promise((resolve, reject) => {
      const id = randomUUID();
      pending.set(id, { resolve, reject, ...(onEvent ? { onEvent } : {}) });
      socket.send(JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) }));
    });
  return {
    call: (method, params) => send(method, params),
    stream: async (method, params, onEvent) => (await send(method, params, onEvent)).result,
    sendBinary(bytes) {
      if (socket.readyState !== WebSocket.OPEN) return false;
      socket.send(bytes, { binary: true });
      return true;
    },
    onBinary(listener) {
      binaryListeners.push(listener);
    },
    refusedEnvelopes,
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
