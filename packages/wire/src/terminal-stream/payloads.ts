import { z } from 'zod';
import { TERMINAL_LIMITS } from '../limits.ts';
import { CAPABILITY_NAMES, type CapabilityRequest } from './capabilities.ts';
import type { DecodeResult } from './decode-result.ts';

const u32 = z.number().int().min(0).max(0xffff_ffff);
const cols = z.number().int().min(1).max(TERMINAL_LIMITS.maxCols);
const rows = z.number().int().min(1).max(TERMINAL_LIMITS.maxRows);
const ViewportSchema = z.object({ cols, rows });
// Why: Resized comes from a host, which may be newer and allow more; a client accepts any u16 size.
const dim = z.number().int().min(1).max(0xffff);

const CapabilityRequestSchema = z.object(
  Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, z.literal(1).optional()])) as Record<
    string,
    z.ZodOptional<z.ZodLiteral<1>>
  >,
);

/** Subscribe (opcode 9, stream 0 only). Unknown capability keys are stripped; a known key must be `1`. */
export const SubscribePayloadSchema = z.object({
  streamId: u32.min(1),
  terminal: z.string().min(1),
  client: z.object({ id: z.string().min(1), type: z.enum(['desktop', 'mobile']).default('desktop') }).optional(),
  viewport: ViewportSchema.optional(),
  capabilities: CapabilityRequestSchema.optional(),
});
/** A parsed Subscribe payload. */
export type SubscribePayload = Omit<z.infer<typeof SubscribePayloadSchema>, 'capabilities'> & {
  capabilities?: CapabilityRequest;
};

/** Resize / ClaimViewport payload. */
export const ViewportPayloadSchema = ViewportSchema;
/** SnapshotRequest payload (an invalid one is read as `{}`). */
export const SnapshotRequestPayloadSchema = z.object({
  requestId: z.number().int().positive().optional(),
  scrollbackRows: z.number().finite().optional(),
});
/** Metadata payload. */
export const MetadataPayloadSchema = z.object({ cwd: z.string() });
/** Ack payload: exactly one of two strict shapes (which one is fixed by the grant). */
export const AckBytesSchema = z.strictObject({ bytes: z.number().int().min(0) });
export const AckRangeSchema = z.strictObject({
  streamGeneration: z.string().min(1),
  ackedEndByte: z.number().int().min(0),
});
/** SetOutputPaused payload (opcode 16). */
export const SetOutputPausedPayloadSchema = z.object({ paused: z.boolean() });
/** Parses a SetOutputPaused payload; a non-boolean `paused` is rejected (the host does nothing). */
export function parseSetOutputPaused(value: unknown): DecodeResult<{ paused: boolean }> {
  return parseWith(SetOutputPausedPayloadSchema, value);
}
/** OutputSpan payload; anything else is unrendered and triggers a resync. */
export const OutputSpanPayloadSchema = z.object({
  data: z.string(),
  rawLength: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  transformed: z.literal(true),
});
/** Resized payload. */
export const ResizedPayloadSchema = z.object({
  cols: dim,
  rows: dim,
  displayMode: z.string(),
  reason: z.string(),
  seq: z.number().optional(),
});

function first(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): DecodeResult<T> {
  try {
    const r = schema.safeParse(value);
    return r.success ? { ok: true, value: r.data } : { ok: false, reason: 'bad-payload', detail: first(r.error) };
  } catch {
    return { ok: false, reason: 'bad-payload', detail: 'schema threw' };
  }
}

/** Parses a Subscribe payload; `detail` is the first issue. */
export function parseSubscribe(value: unknown): DecodeResult<SubscribePayload> {
  return parseWith(SubscribePayloadSchema, value) as DecodeResult<SubscribePayload>;
}
/** Reads a streamId from an invalid Subscribe, if one is readable (for the error event). */
export function readableStreamId(value: unknown): number | undefined {
  const id = typeof value === 'object' && value !== null ? (value as { streamId?: unknown }).streamId : undefined;
  return u32.min(1).safeParse(id).success ? (id as number) : undefined;
}
/**
 * Parses a Resize or ClaimViewport payload: integers 1..`TERMINAL_LIMITS.maxCols` ×
 * 1..`TERMINAL_LIMITS.maxRows`; anything else is rejected and the frame is not applied.
 */
export function parseViewport(value: unknown): DecodeResult<{ cols: number; rows: number }> {
  return parseWith(ViewportPayloadSchema, value);
}
/**
 * Fits a local terminal size into what a host accepts: whole cells, at least 1, at most
 * `TERMINAL_LIMITS.maxCols` × `TERMINAL_LIMITS.maxRows` (a non-finite side becomes 1).
 */
export function fitViewport(cols: number, rows: number): { cols: number; rows: number } {
  const fit = (n: number, max: number) => (Number.isFinite(n) ? Math.min(max, Math.max(1, Math.floor(n))) : 1);
  return { cols: fit(cols, TERMINAL_LIMITS.maxCols), rows: fit(rows, TERMINAL_LIMITS.maxRows) };
}
/** Parses a SnapshotRequest payload; invalid → `{}`. */
export function parseSnapshotRequest(value: unknown): { requestId?: number; scrollbackRows?: number } {
  const r = SnapshotRequestPayloadSchema.safeParse(value);
  return r.success ? r.data : {};
}
/** Parses a Metadata payload. */
export function parseMetadata(value: unknown): DecodeResult<{ cwd: string }> {
  return parseWith(MetadataPayloadSchema, value);
}
/** Parses an Ack payload in the mode fixed by the grant. */
export function parseAck(
  value: unknown,
  mode: 'bytes' | 'ranges',
): DecodeResult<{ bytes: number } | { streamGeneration: string; ackedEndByte: number }> {
  return mode === 'bytes' ? parseWith(AckBytesSchema, value) : parseWith(AckRangeSchema, value);
}
/** Parses an OutputSpan payload. */
export function parseOutputSpan(value: unknown): DecodeResult<z.infer<typeof OutputSpanPayloadSchema>> {
  return parseWith(OutputSpanPayloadSchema, value);
}
/** Parses a Resized payload. */
export function parseResized(value: unknown): DecodeResult<z.infer<typeof ResizedPayloadSchema>> {
  return parseWith(ResizedPayloadSchema, value);
}

/** Session events of `terminal.multiplex` (unknown types are ignored by clients). */
export const TerminalEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('subscribed'),
    streamId: u32,
    terminal: z.string(),
    cols: z.number(),
    rows: z.number(),
    displayMode: z.string().optional(),
    seq: z.number().optional(),
    capabilities: z.record(z.string(), z.unknown()).optional(),
    streamGeneration: z.string().optional(),
    truncated: z.boolean().optional(),
  }),
  z.object({ type: z.literal('end'), streamId: u32, verdict: z.string().optional() }),
  z.object({ type: z.literal('error'), streamId: u32.optional(), message: z.string() }),
  z.object({ type: z.literal('fit-override-changed'), streamId: u32.optional() }).passthrough(),
  z.object({ type: z.literal('driver-changed'), streamId: u32.optional() }).passthrough(),
]);
/** A parsed session event. */
export type TerminalEvent = z.infer<typeof TerminalEventSchema>;

/** Parses a session event; unknown types and bad shapes fail (the client ignores them). */
export function parseTerminalEvent(value: unknown): DecodeResult<TerminalEvent> {
  return parseWith(TerminalEventSchema, value);
}
