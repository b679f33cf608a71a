// The serving side of a relay channel: runs request handlers, answers each request once, and
// aborts a handler's signal on `rpc.cancel` or when the link fails.
import { WireError } from '../errors.ts';
import type { RequestHandler } from './channel-types.ts';
import { JSONRPC_ERROR_CODES, toJsonRpcError } from './link-errors.ts';

/** Serves the requests a relay channel receives. */
export interface RequestResponder {
  onRequest(method: string, handler: RequestHandler): void;
  /** Runs the handler of `method` (a microtask later) and sends its result or error as the response. */
  handle(id: number | string, method: string, params: unknown): void;
  /** `rpc.cancel {id}`: aborts that request's handler signal. */
  cancel(id: unknown): void;
  /** The link failed: aborts every running handler with `reason`. */
  abortAll(reason: unknown): void;
}

/**
 * Creates the responder. `send` takes a JSON-RPC message (without `jsonrpc`) and may throw a
 * `WireError` when the message cannot be framed (a result over the frame cap): that request is
 * then answered with `Internal` and the error's message.
 *
 * @example
 * const responder = createRequestResponder((message) => sendMessage(message));
 * responder.onRequest('ping', () => 'pong');
 * responder.handle(1, 'ping', undefined); // sends { id: 1, result: 'pong' }
 */
export function createRequestResponder(send: (message: Record<string, unknown>) => void): RequestResponder {
  const handlers = new Map<string, RequestHandler>();
  const inflight = new Map<string, AbortController>();

  function respond(
    id: number | string,
    body: { result: unknown } | { error: ReturnType<typeof toJsonRpcError> },
  ): void {
    try {
      send({ id, ...body });
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      send({ id, error: { code: JSONRPC_ERROR_CODES.Internal, message: err.message, data: { nodeCode: null } } });
    }
  }

  return {
    onRequest(method, handler) {
      handlers.set(method, handler);
    },
    handle(id, method, params) {
      const handler = handlers.get(method);
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
    },
    cancel(id) {
      if (typeof id === 'number' || typeof id === 'string') inflight.get(String(id))?.abort();
    },
    abortAll(reason) {
      for (const [, controller] of inflight) controller.abort(reason);
      inflight.clear();
    },
  };
}
