// What a terminal-stream decoder returns instead of throwing, and why it refused.

/** Why a frame was not accepted (closed list; receivers count each). */
export const FRAME_REJECT_REASONS = [
  'short',
  'bad-kind',
  'bad-version',
  'unknown-opcode',
  'wrong-direction',
  'bad-stream',
  'unknown-stream',
  'not-negotiated',
  'bad-payload',
  'json-too-large',
  'json-too-many-tokens',
  'json-too-deep',
  'json-invalid',
] as const;
/** One of {@link FRAME_REJECT_REASONS}. */
export type FrameRejectReason = (typeof FRAME_REJECT_REASONS)[number];

/** A decoder result: never an exception. */
export type DecodeResult<T> = { ok: true; value: T } | { ok: false; reason: FrameRejectReason; detail?: string };
