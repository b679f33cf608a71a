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

/**
 * Parses a request object. Never throws: on failure `id` is the readable id or `'unknown'`.
 */
export function parseRequest(
  value: unknown,
): { ok: true; value: RpcRequest } | { ok: false; id: string; message: string } {
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

/** Parses a response envelope (unknown keys stripped). Never throws. */
export function parseResponse(value: unknown): { ok: true; value: RpcResponse } | { ok: false; reason: string } {
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
