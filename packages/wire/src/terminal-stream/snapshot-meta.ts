import { z } from 'zod';
import { SNAPSHOT_BUDGETS } from '../limits.ts';
import type { DecodeResult } from './decode-result.ts';

/** SnapshotStart meta (opcode 2). */
export const SnapshotMetaSchema = z.object({
  kind: z.enum(['scrollback', 'resized']),
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  truncated: z.boolean(),
  truncatedByByteBudget: z.boolean(),
  requestId: z.number().int().positive().optional(),
  displayMode: z.string().optional(),
  reason: z.string().optional(),
  unavailable: z.enum(['pending-output-overflowed', 'no-serializable-buffer']).optional(),
  seq: z.number().optional(),
  cwd: z.string().optional(),
  source: z.string().optional(),
  oscLinks: z.unknown().optional(),
  pendingEscapeTailAnsi: z.string().optional(),
  kittyKeyboardFlags: z.number().optional(),
  terminalOwner: z.string().optional(),
  alternateScreen: z.boolean().optional(),
});
/** A SnapshotStart meta object. */
export type SnapshotMeta = z.infer<typeof SnapshotMetaSchema>;

/** Input of {@link buildSnapshotMeta}: everything optional but the kind. */
export type SnapshotMetaInput = Partial<Omit<SnapshotMeta, 'kind'>> & { kind: SnapshotMeta['kind'] };

/**
 * Builds a SnapshotStart meta: `cols`/`rows` fall back to 80×24, `truncated` and
 * `truncatedByByteBudget` are always booleans, and fields lacking their prerequisite are dropped
 * (`kittyKeyboardFlags`, `terminalOwner` need a numeric `seq`; `alternateScreen` needs `terminalOwner`).
 */
export function buildSnapshotMeta(input: SnapshotMetaInput): SnapshotMeta {
  const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
  const meta: SnapshotMeta = {
    kind: input.kind,
    cols: positiveInt(input.cols) ? input.cols : SNAPSHOT_BUDGETS.fallbackCols,
    rows: positiveInt(input.rows) ? input.rows : SNAPSHOT_BUDGETS.fallbackRows,
    truncated: input.truncated === true,
    truncatedByByteBudget: input.truncatedByByteBudget === true,
  };
  if (positiveInt(input.requestId)) meta.requestId = input.requestId;
  if (input.displayMode !== undefined) meta.displayMode = input.displayMode;
  if (input.reason !== undefined) meta.reason = input.reason;
  if (input.unavailable !== undefined) meta.unavailable = input.unavailable;
  if (input.cwd !== undefined) meta.cwd = input.cwd;
  if (input.source !== undefined) meta.source = input.source;
  if (input.oscLinks !== undefined) meta.oscLinks = input.oscLinks;
  if (input.pendingEscapeTailAnsi !== undefined) meta.pendingEscapeTailAnsi = input.pendingEscapeTailAnsi;
  if (typeof input.seq === 'number' && Number.isFinite(input.seq)) {
    meta.seq = input.seq;
    if (input.kittyKeyboardFlags !== undefined) meta.kittyKeyboardFlags = input.kittyKeyboardFlags;
    if (input.terminalOwner !== undefined) {
      meta.terminalOwner = input.terminalOwner;
      if (input.alternateScreen !== undefined) meta.alternateScreen = input.alternateScreen;
    }
  }
  return meta;
}

/** Parses a SnapshotStart meta; unknown keys are stripped. */
export function parseSnapshotMeta(value: unknown): DecodeResult<SnapshotMeta> {
  const r = SnapshotMetaSchema.safeParse(value);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, reason: 'bad-payload', detail: r.error.issues[0]?.message ?? 'invalid' };
}
