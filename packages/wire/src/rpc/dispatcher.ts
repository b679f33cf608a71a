import { z } from 'zod';
import { systemClock, type WireClock } from '../clock.ts';
import { utf8 } from '../internal/utf8.ts';
import { RPC_LIMITS } from '../limits.ts';
import { DEFAULT_PASS_THROUGH_CODES, RPC_CODE_PATTERN } from './codes.ts';
import {
  failure,
  KEEPALIVE,
  parseRequest,
  type RpcFailure,
  type RpcResponse,
  type RpcSuccess,
  streamEvent,
  success,
} from './envelope.ts';
import { InvalidArgumentError, RpcError } from './errors.ts';

/** What a handler receives besides its params. */
export interface MethodContext {
  signal: AbortSignal;
  /** Streaming methods: sends one `streaming: true` event. */
  emit(result: unknown): void;
  /** Top-level request keys other than id/method/params (auth, orchestration). */
  meta: Record<string, unknown>;
}

/** One RPC method. `params: null` → the handler gets `undefined`. */
export interface MethodDefinition<P = unknown> {
  name: string;
  params: z.ZodType<P> | null;
  /** Unknown param keys → `invalid_argument` instead of being stripped. */
  strict?: boolean;
  streaming?: boolean;
  handler(params: P, context: MethodContext): unknown;
}

/**
 * Defines a method with typed params.
 *
 * @example
 * const ping = defineMethod({ name: 'ping', params: z.object({ n: z.number() }), handler: ({ n }) => n + 1 });
 */
export function defineMethod<P>(definition: MethodDefinition<P>): MethodDefinition<P> {
  return definition;
}

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  runtimeId: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: a heterogeneous method list needs each entry's own params type.
  methods: ReadonlyArray<MethodDefinition<any>>;
  /**
   * Handler error `code`s sent to the client unchanged (default {@link DEFAULT_PASS_THROUGH_CODES};
   * passing a list replaces it). Any other error is `runtime_error` with its message.
   */
  passThroughCodes?: readonly string[];
  maxRequestBytes?: number;
  clock?: WireClock;
}

/** Per-dispatch transport options. */
export interface DispatchOptions {
  /** `'streaming'` for a long-poll / stream call. Default `'unary'`. */
  mode?: 'unary' | 'streaming';
  signal?: AbortSignal;
  /** Receives stream events and keepalives (streaming mode). */
  onEvent?(envelope: RpcResponse): void;
}

/** A runtime RPC dispatcher. */
export interface Dispatcher {
  /** Runs one request (raw JSON text or bytes); resolves to the final envelope. Never rejects. */
  dispatch(raw: string | Uint8Array, options?: DispatchOptions): Promise<RpcSuccess | RpcFailure>;
}

function newController(parent: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (parent?.aborted) controller.abort(parent.reason);
  return controller;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid argument';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * Creates a dispatcher. Order: size → JSON → envelope → method → mode → params → handler.
 *
 * @example
 * const d = createDispatcher({ runtimeId: 'r1', methods: [ping] });
 * const response = await d.dispatch('{"id":"1","method":"ping","params":{"n":1}}');
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const clock = options.clock ?? systemClock;
  const maxBytes = options.maxRequestBytes ?? RPC_LIMITS.maxRequestBytes;
  const passThrough = new Set<string>(options.passThroughCodes ?? DEFAULT_PASS_THROUGH_CODES);
  const methods = new Map(options.methods.map((m) => [m.name, m]));
  const runtimeId = options.runtimeId;
  let longPolls = 0;
  // Why: `.strict()` builds a new schema; make it once per method, not once per call.
  const strictSchemas = new Map<MethodDefinition<unknown>, z.ZodType>();
  function paramsSchema(def: MethodDefinition<unknown>, params: z.ZodType): z.ZodType {
    if (!def.strict || !(params instanceof z.ZodObject)) return params;
    let strict = strictSchemas.get(def);
    if (!strict) {
      strict = params.strict();
      strictSchemas.set(def, strict);
    }
    return strict;
  }

  function mapError(id: string, err: unknown): RpcFailure {
    if (err instanceof z.ZodError) return failure(id, 'invalid_argument', firstIssue(err), runtimeId);
    if (err instanceof InvalidArgumentError) return failure(id, 'invalid_argument', err.message, runtimeId);
    if (err instanceof RpcError && RPC_CODE_PATTERN.test(err.rpcCode)) {
      return failure(id, err.rpcCode, err.message, runtimeId, err.data);
    }
    const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const message = err instanceof Error ? err.message : String(err);
    if (typeof code === 'string' && passThrough.has(code)) return failure(id, code, message, runtimeId);
    // Why: a message is never read as a code; an error that wants its code kept carries it in `code`.
    return failure(id, 'runtime_error', message, runtimeId);
  }

  async function run(raw: string | Uint8Array, dispatchOptions: DispatchOptions): Promise<RpcSuccess | RpcFailure> {
    const size = typeof raw === 'string' ? utf8.byteLength(raw) : raw.byteLength;
    if (size > maxBytes)
      return failure('unknown', 'request_too_large', `request is ${size} bytes, the limit is ${maxBytes}`, runtimeId);
    let json: unknown;
    try {
      json = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return failure('unknown', 'bad_request', 'request is not valid JSON', runtimeId);
    }
    const parsed = parseRequest(json);
    if (!parsed.ok) return failure(parsed.id, 'bad_request', parsed.message, runtimeId);
    const { id, method, params, meta } = parsed.value;
    const def = methods.get(method);
    if (!def) return failure(id, 'method_not_found', `Unknown method: ${method}`, runtimeId);
    const streaming = dispatchOptions.mode === 'streaming';
    if (Boolean(def.streaming) !== streaming) {
      return failure(
        id,
        'method_not_supported',
        `${method} is ${def.streaming ? 'a streaming' : 'a unary'} method`,
        runtimeId,
      );
    }
    let input: unknown;
    if (def.params !== null) {
      const schema = paramsSchema(def, def.params);
      try {
        const r = schema.safeParse(params ?? {});
        if (!r.success) return failure(id, 'invalid_argument', firstIssue(r.error), runtimeId);
        input = r.data;
      } catch (err) {
        return failure(id, 'invalid_argument', err instanceof Error ? err.message : 'params schema failed', runtimeId);
      }
    }
    if (streaming && longPolls >= RPC_LIMITS.maxConcurrentLongPolls) {
      return failure(
        id,
        'runtime_busy',
        `more than ${RPC_LIMITS.maxConcurrentLongPolls} concurrent long-polls`,
        runtimeId,
      );
    }
    // Why: most handlers never read their signal; an AbortController per call is measurable, and
    // so are per-call closures, so those are only made when a signal or streaming needs them.
    const parentSignal = dispatchOptions.signal;
    let controller: AbortController | undefined;
    let onAbort: (() => void) | undefined;
    if (parentSignal) {
      onAbort = () => {
        controller ??= newController(parentSignal);
        controller.abort(parentSignal.reason);
      };
      parentSignal.addEventListener('abort', onAbort, { once: true });
    }
    let keepalive: unknown;
    if (streaming) {
      const scheduleKeepalive = (): void => {
        keepalive = clock.setTimeout(() => {
          dispatchOptions.onEvent?.(KEEPALIVE);
          scheduleKeepalive();
        }, RPC_LIMITS.keepaliveIntervalMs);
      };
      longPolls++;
      scheduleKeepalive();
    }
    try {
      const result = await def.handler(input, {
        get signal() {
          controller ??= newController(parentSignal);
          return controller.signal;
        },
        emit(r: unknown) {
          if (streaming) dispatchOptions.onEvent?.(streamEvent(id, r, runtimeId));
        },
        meta,
      });
      return success(id, result === undefined ? null : result, runtimeId);
    } catch (err) {
      return mapError(id, err);
    } finally {
      if (streaming) {
        longPolls--;
        clock.clearTimeout(keepalive);
      }
      if (onAbort) parentSignal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    dispatch: (raw, dispatchOptions = {}) =>
      run(raw, dispatchOptions).catch((err: unknown) =>
        failure('unknown', 'internal_error', err instanceof Error ? err.message : String(err), runtimeId),
      ),
  };
}
