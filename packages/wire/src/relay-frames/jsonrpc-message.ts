import { z } from 'zod';

const IdSchema = z.union([z.number(), z.string()]);
const ErrorObjectSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

const RequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: IdSchema,
  method: z.string(),
  params: z.unknown().optional(),
});
const NotificationSchema = z.object({ jsonrpc: z.literal('2.0'), method: z.string(), params: z.unknown().optional() });
const ResultSchema = z.object({ jsonrpc: z.literal('2.0'), id: IdSchema, result: z.unknown().optional() });
const ErrorResponseSchema = z.object({ jsonrpc: z.literal('2.0'), id: IdSchema.nullable(), error: ErrorObjectSchema });

/** A JSON-RPC 2.0 message as the relay channel sees it. */
export type JsonRpcMessage =
  | { kind: 'request'; id: number | string; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: number | string; result: unknown }
  | { kind: 'error'; id: number | string | null; error: { code: number; message: string; data?: unknown } };

/** Why a Regular payload was not a JSON-RPC 2.0 message. */
export type JsonRpcRejectReason = 'invalid-json' | 'bad-jsonrpc-version' | 'invalid-shape';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses one Regular frame payload. Only the 16 MiB frame cap bounds it (no depth or token
 * pre-scan: those are the terminal stream's). Never throws.
 */
export function parseJsonRpcPayload(
  payload: Uint8Array,
): { ok: true; value: JsonRpcMessage } | { ok: false; reason: JsonRpcRejectReason } {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(payload));
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, reason: 'invalid-shape' };
  if ((json as Record<string, unknown>).jsonrpc !== '2.0') return { ok: false, reason: 'bad-jsonrpc-version' };
  if ('method' in json) {
    if ('id' in json) {
      const r = RequestSchema.safeParse(json);
      return r.success
        ? { ok: true, value: { kind: 'request', ...pick(r.data) } }
        : { ok: false, reason: 'invalid-shape' };
    }
    const n = NotificationSchema.safeParse(json);
    return n.success
      ? { ok: true, value: { kind: 'notification', method: n.data.method, params: n.data.params } }
      : { ok: false, reason: 'invalid-shape' };
  }
  if ('error' in json) {
    const e = ErrorResponseSchema.safeParse(json);
    return e.success
      ? { ok: true, value: { kind: 'error', id: e.data.id, error: e.data.error } }
      : { ok: false, reason: 'invalid-shape' };
  }
  if ('result' in json) {
    const s = ResultSchema.safeParse(json);
    return s.success
      ? { ok: true, value: { kind: 'result', id: s.data.id, result: s.data.result } }
      : { ok: false, reason: 'invalid-shape' };
  }
  return { ok: false, reason: 'invalid-shape' };
}

function pick(r: { id: number | string; method: string; params?: unknown }) {
  return { id: r.id, method: r.method, params: r.params };
}
