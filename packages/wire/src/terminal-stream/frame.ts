import { WireError } from '../errors.ts';
import { allocFilledByCaller } from '../internal/bytes.ts';
import { utf8 } from '../internal/utf8.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import { type Grant, isGrant } from './capabilities.ts';
import type { DecodeResult, FrameRejectReason } from './decode-result.ts';
import { KNOWN_OPCODES, Opcode, opcodeInfo } from './opcodes.ts';

/** First header byte of every terminal frame. */
export const TERMINAL_FRAME_KIND = 0x74;
/** Second header byte. */
export const TERMINAL_FRAME_VERSION = 1;

/** One terminal frame. `seq` is exact up to 2⁵³−1. */
export interface TerminalFrame {
  opcode: number;
  streamId: number;
  seq: number;
  payload: Uint8Array;
}

export { type DecodeResult, FRAME_REJECT_REASONS, type FrameRejectReason } from './decode-result.ts';

const TWO_32 = 2 ** 32;
const TEXT_PAYLOAD_OPCODES: ReadonlySet<number> = new Set([Opcode.Output, Opcode.SnapshotChunk]);

/**
 * Encodes a frame. Throws `WireError` only on caller bugs: a gated opcode the grant lacks
 * (`ORCA_WIRE_NOT_NEGOTIATED`), a streamId outside u32 (`…_BAD_STREAM_ID`), an Output/Chunk text
 * over 48 KiB (`…_FRAME_TOO_LARGE`). `seq` is clamped to `max(0, floor(seq))`.
 *
 * @example
 * const bytes = encodeFrame({ opcode: Opcode.Input, streamId: 1, seq: 0, payload: new TextEncoder().encode('ls\r') });
 */
export function encodeFrame(frame: TerminalFrame, grant?: Grant): Uint8Array {
  checkFrame(frame.opcode, frame.streamId, frame.payload.byteLength, grant);
  // Why: every byte below is written (16 header bytes, then the payload), so no zero-fill is needed.
  const out = allocFilledByCaller(TERMINAL_LIMITS.headerBytes + frame.payload.byteLength);
  writeHeader(out, frame.opcode, frame.streamId, frame.seq);
  out.set(frame.payload, TERMINAL_LIMITS.headerBytes);
  return out;
}

/**
 * Encodes a frame whose payload is `text` as UTF-8: the same bytes and the same `WireError`s as
 * `encodeFrame({ opcode, streamId, seq, payload: encodeTextPayload(text) }, grant)`, but the text
 * is written straight into the frame (one allocation, no intermediate payload copy).
 *
 * @example
 * const bytes = encodeTextFrame(Opcode.Output, 1, 5, 'hello');
 */
export function encodeTextFrame(
  opcode: number,
  streamId: number,
  seq: number,
  text: string,
  grant?: Grant,
): Uint8Array {
  const textBytes = utf8.byteLength(text);
  checkFrame(opcode, streamId, textBytes, grant);
  const out = utf8.allocWithText(TERMINAL_LIMITS.headerBytes, text, textBytes);
  writeHeader(out, opcode, streamId, seq);
  return out;
}

/** The caller-bug checks shared by the encoders (see {@link encodeFrame}). */
function checkFrame(opcode: number, streamId: number, payloadBytes: number, grant: Grant | undefined): void {
  const info = opcodeInfo(opcode);
  if (info?.gate && !(isGrant(grant) && grant.has(info.gate))) {
    throw new WireError('ORCA_WIRE_NOT_NEGOTIATED', `opcode ${info.name} needs capability ${info.gate}, not granted`, {
      context: { opcode, capability: info.gate },
    });
  }
  if (!Number.isInteger(streamId) || streamId < 0 || streamId >= TWO_32) {
    throw new WireError('ORCA_WIRE_BAD_STREAM_ID', `streamId must be an integer 0…2^32-1, got ${streamId}`, {
      context: { streamId },
    });
  }
  if (TEXT_PAYLOAD_OPCODES.has(opcode) && payloadBytes > TERMINAL_LIMITS.chunkBytes) {
    throw new WireError(
      'ORCA_WIRE_FRAME_TOO_LARGE',
      `text payload is ${payloadBytes} bytes, the limit is ${TERMINAL_LIMITS.chunkBytes}`,
      { context: { length: payloadBytes } },
    );
  }
}

/** Writes the 16-byte header; `seq` is clamped to `max(0, floor(seq))` (non-finite → 0). */
function writeHeader(out: Uint8Array, opcode: number, streamId: number, rawSeq: number): void {
  const seq = Number.isFinite(rawSeq) ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.floor(rawSeq))) : 0;
  out[0] = TERMINAL_FRAME_KIND;
  out[1] = TERMINAL_FRAME_VERSION;
  out[2] = opcode & 0xff;
  out[3] = 0;
  writeU32LE(out, 4, streamId);
  writeU32LE(out, 8, Math.floor(seq / TWO_32));
  writeU32LE(out, 12, seq >>> 0);
}

/**
 * Decodes one frame. `opcodes` is the decoder's set (default: every opcode this build knows);
 * others are `unknown-opcode`. Honours a subarray's `byteOffset`; the payload is a copy. Never throws.
 */
export function decodeFrame(
  bytes: Uint8Array,
  opcodes: ReadonlySet<number> = KNOWN_OPCODES,
): DecodeResult<TerminalFrame> {
  return decodeWith(bytes, opcodes, true);
}

/**
 * {@link decodeFrame} whose payload is a view into `bytes` instead of a copy. Only for a receiver
 * that decodes the payload synchronously and never keeps or hands out the bytes (the client).
 * @internal not exported from the package.
 */
export function decodeFrameView(
  bytes: Uint8Array,
  opcodes: ReadonlySet<number> = KNOWN_OPCODES,
): DecodeResult<TerminalFrame> {
  return decodeWith(bytes, opcodes, false);
}

function decodeWith(bytes: Uint8Array, opcodes: ReadonlySet<number>, copy: boolean): DecodeResult<TerminalFrame> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < TERMINAL_LIMITS.headerBytes)
    return { ok: false, reason: 'short' };
  if (bytes[0] !== TERMINAL_FRAME_KIND) return { ok: false, reason: 'bad-kind' };
  if (bytes[1] !== TERMINAL_FRAME_VERSION) return { ok: false, reason: 'bad-version' };
  const opcode = bytes[2] ?? 0;
  if (!opcodes.has(opcode)) return { ok: false, reason: 'unknown-opcode', detail: String(opcode) };
  const view = bytes.subarray(TERMINAL_LIMITS.headerBytes);
  let payload = view;
  if (copy) {
    // Why: the payload must be a copy (never a view); every byte is overwritten, so skip the zero-fill.
    payload = allocFilledByCaller(view.byteLength);
    payload.set(view);
  }
  return {
    ok: true,
    value: {
      opcode,
      streamId: readU32LE(bytes, 4),
      seq: readU32LE(bytes, 8) * TWO_32 + readU32LE(bytes, 12),
      payload,
    },
  };
}

function writeU32LE(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value & 0xff;
  out[offset + 1] = (value >>> 8) & 0xff;
  out[offset + 2] = (value >>> 16) & 0xff;
  out[offset + 3] = (value >>> 24) & 0xff;
}

/** Caller guarantees `offset + 4 <= bytes.length`. */
function readU32LE(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16)) +
    (bytes[offset + 3] ?? 0) * 0x1000000
  );
}

/** Receiver counters. */
export interface ReceiveStats {
  accepted: number;
  rejected: number;
  byReason: Partial<Record<FrameRejectReason, number>>;
  /** Count per unknown opcode number. */
  unknownOpcodes: Record<number, number>;
}

/** A frame decoder with a fixed opcode set (a host can be built with a narrower one). */
export interface FrameDecoder {
  readonly opcodes: ReadonlySet<number>;
  decode(bytes: Uint8Array): DecodeResult<TerminalFrame>;
}

/**
 * Creates a decoder for a given opcode set (default: every opcode this build knows).
 *
 * @example
 * const withoutInput = createFrameDecoder({ opcodes: [...KNOWN_OPCODES].filter((o) => o !== Opcode.Input) });
 */
export function createFrameDecoder(options: { opcodes?: Iterable<number> } = {}): FrameDecoder {
  const opcodes: ReadonlySet<number> = new Set(options.opcodes ?? KNOWN_OPCODES);
  return { opcodes, decode: (bytes) => decodeFrame(bytes, opcodes) };
}

/** Mutable counters behind {@link ReceiveStats}. */
export class ReceiveCounter {
  readonly #stats: ReceiveStats = { accepted: 0, rejected: 0, byReason: {}, unknownOpcodes: {} };
  accept(): void {
    this.#stats.accepted++;
  }
  reject(reason: FrameRejectReason, detail?: string): void {
    this.#stats.rejected++;
    this.#stats.byReason[reason] = (this.#stats.byReason[reason] ?? 0) + 1;
    if (reason === 'unknown-opcode' && detail !== undefined) {
      const n = Number(detail);
      this.#stats.unknownOpcodes[n] = (this.#stats.unknownOpcodes[n] ?? 0) + 1;
    }
  }
  snapshot(): ReceiveStats {
    return {
      accepted: this.#stats.accepted,
      rejected: this.#stats.rejected,
      byReason: { ...this.#stats.byReason },
      unknownOpcodes: { ...this.#stats.unknownOpcodes },
    };
  }
}
