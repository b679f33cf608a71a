import { parseResponse, type RpcFailure } from './envelope.ts';

/** The client side of RPC correlation: calls waiting for their response envelope, by id. */
export interface RpcCallRouter {
  /** Waits for the response to the request sent with `id`; `onEvent` gets each streaming result first. */
  expect<T>(id: string, onEvent?: (result: unknown) => void): Promise<T>;
  /** Routes one text message. Malformed JSON, keepalives and unknown ids are ignored; never throws. */
  receive(text: string): void;
  /** Rejects every waiting call with `error` (the connection is gone). */
  failAll(error: unknown): void;
}

type Waiter = { resolve(value: unknown): void; reject(error: unknown): void; onEvent?: (result: unknown) => void };

/**
 * One response router per connection, shared by every client of the runtime RPC (host CLI, web
 * page): a failure envelope rejects with `toError(failure)`.
 *
 * @example
 * const router = createRpcCallRouter((f) => new Error(f.error.message));
 * const answer = router.expect('1'); socket.send(JSON.stringify({ id: '1', method: 'status.get' }));
 * socket.on('message', (text) => router.receive(String(text)));
 */
export function createRpcCallRouter(toError: (failure: RpcFailure) => unknown): RpcCallRouter {
  const waiting = new Map<string, Waiter>();
  return {
    expect<T>(id: string, onEvent?: (result: unknown) => void): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, ...(onEvent ? { onEvent } : {}) });
      });
    },
    receive(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return;
      }
      const parsed = parseResponse(json);
      if (!parsed.ok || '_keepalive' in parsed.value) return;
      const envelope = parsed.value;
      const waiter = waiting.get(envelope.id);
      if (!waiter) return;
      if (envelope.ok && envelope.streaming) {
        waiter.onEvent?.(envelope.result);
        return;
      }
      waiting.delete(envelope.id);
      if (envelope.ok) waiter.resolve(envelope.result);
      else waiter.reject(toError(envelope));
    },
    failAll(error) {
      const waiters = [...waiting.values()];
      waiting.clear();
      for (const waiter of waiters) waiter.reject(error);
    },
  };
}
