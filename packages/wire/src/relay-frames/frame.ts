import { WireError } from '../errors.ts';
import { allocFilledByCaller } from '../internal/bytes.ts';
import { RELAY_LIMITS } from '../limits.ts';

/**
 * Relay frame types. Numbers are permanent: never reuse one.
 * 3–8 are unassigned (the reference reserved them for features it never shipped).
 */
export const RelayFrameType = {
  /** UTF-8 JSON-RPC 2.0 message. */
  Regular: 1,
  /** Protocol handshake (decoded, unused by the 0.1.0 channel: the sentinel carries the version). */
  Handshake: 2,
  /** Empty; updates acks, never delivered. */
  KeepAlive: 9,
} as const;

/** A relay frame type number. */
export type RelayFrameTypeNumber = (typeof RelayFrameType)[keyof typeof RelayFrameType];

const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(RelayFrameType));

/** True when `type` is one of {@link RelayFrameType}. */
export function isRelayFrameType(type: number): type is RelayFrameTypeNumber {
  return KNOWN_TYPES.has(type);
}

/** One decoded (or to-be-encoded) relay frame. */
export interface RelayFrame {
  type: RelayFrameTypeNumber;
  /** u32; 0 for handshakes. */
  seq: number;
  /** u32: highest seq received by the sender. */
  ack: number;
  payload: Uint8Array;
}

function assertU32(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new WireError('ORCA_WIRE_BAD_ARGUMENT', `relay frame ${name} must be a u32, got ${value}`, {
      context: { [name]: value },
    });
  }
}

/**
 * Encodes one relay frame: 13-byte big-endian header then the payload. Throws `WireError` only on
 * caller bugs (payload over {@link RELAY_LIMITS.maxPayloadBytes}, seq/ack not u32, unknown type).
 *
 * @example
 * const bytes = encodeRelayFrame({ type: RelayFrameType.KeepAlive, seq: 1, ack: 0, payload: new Uint8Array(0) });
 */
export function encodeRelayFrame(frame: RelayFrame): Uint8Array {
  if (!isRelayFrameType(frame.type)) {
    throw new WireError('ORCA_WIRE_BAD_ARGUMENT', `unknown relay frame type ${String(frame.type)}`);
  }
  assertU32('seq', frame.seq);
  assertU32('ack', frame.ack);
  const length = frame.payload.byteLength;
  if (length > RELAY_LIMITS.maxPayloadBytes) {
    throw new WireError(
      'ORCA_WIRE_FRAME_TOO_LARGE',
      `relay payload is ${length} bytes, the limit is ${RELAY_LIMITS.maxPayloadBytes}`,
      { context: { length } },
    );
  }
  // Why: every byte below is written (13 header bytes, then the payload), so no zero-fill is needed.
  const out = allocFilledByCaller(RELAY_LIMITS.headerBytes + length);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint8(0, frame.type);
  view.setUint32(1, frame.seq);
  view.setUint32(5, frame.ack);
  view.setUint32(9, length);
  out.set(frame.payload, RELAY_LIMITS.headerBytes);
  return out;
}

/** Next outgoing seq: u32, starting at 1, wrapping to 1 (0 is never used). */
export function nextRelaySeq(seq: number): number {
  return seq >= 0xffff_ffff ? 1 : seq + 1;
}

/** `a` is after `b` modulo 2³² (serial-number arithmetic). */
export function relaySeqAfter(a: number, b: number): boolean {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x8000_0000;
}
