import { z } from 'zod';

/** A success envelope. */
export interface RpcSuccess {
  id: string;
  ok: true;
  result: unknown;
  streaming?: true;
  _meta: { runtimeId: string | null };
}
/** A failure envelope; `error.data` is absent (not undefined/null) when there is none. */
export interface RpcFailure {
  id: string;
  ok: false;
  error: { code: string; message: string; data?: unknown };
  _meta?: { runtimeId: string | null };
}
/** The long-poll keepalive. */
export const KEEPALIVE = Object.freeze({ _keepalive: true as const });
/** Any response envelope. */
export type RpcResponse = RpcSuccess | RpcFailure | typeof KEEPALIVE;

/** A parsed request: the envelope plus every other top-level key as `meta`. */
export interface RpcRequest {
  id: string;
  method: string;
  params: unknown;
  meta: Record<string, unknown>;
}

/** The success envelope for `result`. */
export function success(id: string, result: unknown, runtimeId: string | null): RpcSuccess {
  return { id, ok: true, result, _meta: { runtimeId } };
}

/** One event of a streaming method (many per id). */
export function streamEvent(id: string, result: unknown, runtimeId: string | null): RpcSuccess {
  return { id, ok: true, result, streaming: true, _meta: { runtimeId } };
}

/** A failure envelope; the `data` key is set only when `data` is not undefined. */
export function failure(
  id: string,
  code: string,
  message: string,
  runtimeId: string | null,
  data?: unknown,
): RpcFailure {
  const error: RpcFailure['error'] = { code, message };
  if (data !== undefined) error.data = data;
  return { id, ok: false, error, _meta: { runtimeId } };
}

const RequestSchema = z.looseObject({
  id: z.string().min(1),
  method: z.string().min(1),
  params: z.unknown().optional(),
});

type RequestParse = { ok: true; value: RpcRequest } | { ok: false; id: string; message: string };

/**
 * Parses a request object. Never throws: on failure `id` is the readable id or `'unknown'`.
 * A well-formed plain object takes a hand-checked path (property-tested equal to the zod schema);
 * anything else, and every error message, comes from zod.
 */
export function parseRequest(value: unknown): RequestParse {
  return fastParseRequest(value) ?? parseRequestWithZod(value);
}

/** True for an object literal / `JSON.parse` object: the only shape the fast paths accept. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The accept-only fast path of {@link parseRequest}: the parsed request, or `undefined` to defer
 * to zod (for any input it is not sure about, including every invalid one).
 * @internal exported for the equivalence property test.
 */
export function fastParseRequest(value: unknown): RequestParse | undefined {
  if (!isPlainRecord(value)) return undefined;
  const { id, method } = value;
  if (typeof id !== 'string' || id.length === 0 || typeof method !== 'string' || method.length === 0) return undefined;
  const meta: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === 'id' || key === 'method' || key === 'params') continue;
    // Why: zod copies unknown keys by assignment, where `__proto__` has its own meaning; defer.
    if (key === '__proto__') return undefined;
    meta[key] = value[key];
  }
  return { ok: true, value: { id, method, params: value.params, meta } };
}

/**
 * {@link parseRequest} through the zod schema only.
 * @internal exported for the equivalence property test.
 */
export function parseRequestWithZod(value: unknown): RequestParse {
  const r = RequestSchema.safeParse(value);
  if (!r.success) {
    const rawId = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
    const id = typeof rawId === 'string' && rawId.length > 0 ? rawId : 'unknown';
    const issue = r.error.issues[0];
    return { ok: false, id, message: `bad request: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}` };
  }
  const { id, method, params, ...meta } = r.data;
  return { ok: true, value: { id, method, params, meta } };
}

const MetaSchema = z.object({ runtimeId: z.string().nullable() });
const SuccessSchema = z.object({
  id: z.string(),
  ok: z.literal(true),
  result: z.unknown(),
  streaming: z.literal(true).optional(),
  _meta: MetaSchema,
});
const FailureSchema = z.object({
  id: z.string(),
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
  _meta: MetaSchema.optional(),
});
const KeepaliveSchema = z.object({ _keepalive: z.literal(true) });

type ResponseParse = { ok: true; value: RpcResponse } | { ok: false; reason: string };

/**
 * Parses a response envelope (unknown keys stripped). Never throws. Well-formed plain envelopes
 * take a hand-checked path (property-tested equal to the zod schemas); the rest goes through zod.
 */
export function parseResponse(value: unknown): ResponseParse {
  return fastParseResponse(value) ?? parseResponseWithZod(value);
}

function isRuntimeMeta(value: unknown): value is { runtimeId: string | null } {
  if (!isPlainRecord(value)) return false;
  const runtimeId = value.runtimeId;
  return typeof runtimeId === 'string' || runtimeId === null;
}

/**
 * The accept-only fast path of {@link parseResponse}: the parsed envelope, or `undefined` to
 * defer to zod.
 * @internal exported for the equivalence property test.
 */
export function fastParseResponse(value: unknown): ResponseParse | undefined {
  if (!isPlainRecord(value)) return undefined;
  if (value._keepalive === true) return { ok: true, value: KEEPALIVE };
  const { id, ok } = value;
  if (typeof id !== 'string') return undefined;
  if (ok === true) {
    const { streaming, _meta } = value;
    if (!Object.hasOwn(value, 'result') || (streaming !== undefined && streaming !== true)) return undefined;
    if (!isRuntimeMeta(_meta)) return undefined;
    const meta = { runtimeId: _meta.runtimeId };
    const result = value.result;
    return {
      ok: true,
      value: streaming ? { id, ok: true, result, _meta: meta, streaming } : { id, ok: true, result, _meta: meta },
    };
  }
  if (ok === false) {
    const { error, _meta } = value;
    if (!isPlainRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string') return undefined;
    if (_meta !== undefined && !isRuntimeMeta(_meta)) return undefined;
    const outError: RpcFailure['error'] = { code: error.code, message: error.message };
    if (error.data !== undefined) outError.data = error.data;
    const out: RpcFailure = { id, ok: false, error: outError };
    if (_meta !== undefined) out._meta = { runtimeId: _meta.runtimeId };
    return { ok: true, value: out };
  }
  return undefined;
}

/**
 * {@link parseResponse} through the zod schemas only.
 * @internal exported for the equivalence property test.
 */
export function parseResponseWithZod(value: unknown): ResponseParse {
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'not an RPC response envelope' };
  // Why: pick the one schema the shape can match; a failed zod parse builds a costly error.
  const probe = value as { _keepalive?: unknown; ok?: unknown };
  if (probe._keepalive === true)
    return KeepaliveSchema.safeParse(value).success
      ? { ok: true, value: KEEPALIVE }
      : { ok: false, reason: 'bad keepalive' };
  const s = probe.ok === true ? SuccessSchema.safeParse(value) : undefined;
  if (s?.success) {
    const { streaming, ...rest } = s.data;
    return {
      ok: true,
      value: streaming ? { ...rest, result: s.data.result, streaming } : { ...rest, result: s.data.result },
    };
  }
  const f = probe.ok === false ? FailureSchema.safeParse(value) : undefined;
  if (f?.success) {
    const error: RpcFailure['error'] = { code: f.data.error.code, message: f.data.error.message };
    if (Object.hasOwn(f.data.error, 'data') && f.data.error.data !== undefined) error.data = f.data.error.data;
    const out: RpcFailure = { id: f.data.id, ok: false, error };
    if (f.data._meta) out._meta = f.data._meta;
    return { ok: true, value: out };
  }
  return { ok: false, reason: 'not an RPC response envelope' };
}
