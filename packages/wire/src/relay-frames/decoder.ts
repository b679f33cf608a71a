import { RELAY_LIMITS } from '../limits.ts';
import { isRelayFrameType, type RelayFrame } from './frame.ts';

/** Why a relay frame was not delivered. */
export const RELAY_REJECT_REASONS = ['oversize', 'unknown-type'] as const;
/** One of {@link RELAY_REJECT_REASONS}. */
export type RelayRejectReason = (typeof RELAY_REJECT_REASONS)[number];

/** A frame the decoder skipped (its payload was never buffered). */
export interface RelayReject {
  reason: RelayRejectReason;
  type: number;
  length: number;
}

/** What one `push` produced (read-only: an empty result is shared). */
export interface RelayDecodeResult {
  readonly frames: readonly RelayFrame[];
  readonly rejects: readonly RelayReject[];
}

const NOTHING: RelayDecodeResult = Object.freeze({ frames: Object.freeze([]), rejects: Object.freeze([]) });

interface Segment {
  bytes: Uint8Array;
  start: number;
  end: number;
  /** Owned blocks accept appended small chunks up to their capacity. */
  owned: boolean;
}

/**
 * Incremental relay frame decoder. Linear in the bytes pushed: chunks are listed by reference,
 * chunks under {@link RELAY_LIMITS.ownedBlockBytes} are packed into owned blocks, a payload inside
 * one segment is returned as a view (else copied once), and an oversize payload is skipped as it
 * streams past. Never throws on input bytes.
 *
 * @example
 * const decoder = new RelayFrameDecoder();
 * const { frames, rejects } = decoder.push(chunk);
 */
export class RelayFrameDecoder {
  readonly #maxPayloadBytes: number;
  readonly #segments: Segment[] = [];
  #head = 0;
  #buffered = 0;
  #skipRemaining = 0;

  constructor(options: { maxPayloadBytes?: number } = {}) {
    this.#maxPayloadBytes = options.maxPayloadBytes ?? RELAY_LIMITS.maxPayloadBytes;
  }

  /** Bytes currently held (a partial header or payload); bounded for oversize frames. */
  get bufferedBytes(): number {
    return this.#buffered;
  }

  /** Feeds transport bytes; returns every frame completed and every frame rejected. */
  push(chunk: Uint8Array): RelayDecodeResult {
    let input = chunk;
    if (this.#skipRemaining > 0) {
      const skip = Math.min(this.#skipRemaining, input.byteLength);
      this.#skipRemaining -= skip;
      input = input.subarray(skip);
    }
    if (input.byteLength > 0) this.#append(input);
    // Why: most small pushes complete nothing; skip allocating a result for them.
    if (this.#skipRemaining === 0 && this.#buffered < this.#needed) return NOTHING;
    const result = { frames: [] as RelayFrame[], rejects: [] as RelayReject[] };
    this.#drain(result);
    return result.frames.length === 0 && result.rejects.length === 0 ? NOTHING : result;
  }

  /** Bytes needed before the next frame can complete (header, then header + payload). */
  #needed: number = RELAY_LIMITS.headerBytes;

  #append(chunk: Uint8Array): void {
    this.#buffered += chunk.byteLength;
    if (chunk.byteLength >= RELAY_LIMITS.ownedBlockBytes) {
      this.#segments.push({ bytes: chunk, start: 0, end: chunk.byteLength, owned: false });
      return;
    }
    const last = this.#segments[this.#segments.length - 1];
    if (last?.owned && last.bytes.byteLength - last.end >= chunk.byteLength) {
      if (chunk.byteLength < 16) {
        for (let i = 0; i < chunk.byteLength; i++) last.bytes[last.end + i] = chunk[i] ?? 0;
      } else {
        last.bytes.set(chunk, last.end);
      }
      last.end += chunk.byteLength;
      return;
    }
    const block = new Uint8Array(RELAY_LIMITS.ownedBlockBytes);
    block.set(chunk, 0);
    this.#segments.push({ bytes: block, start: 0, end: chunk.byteLength, owned: true });
  }

  #drain(result: { frames: RelayFrame[]; rejects: RelayReject[] }): void {
    for (;;) {
      if (this.#skipRemaining > 0) {
        const skipped = this.#discard(this.#skipRemaining);
        this.#skipRemaining -= skipped;
        if (this.#skipRemaining > 0) return;
      }
      this.#needed = RELAY_LIMITS.headerBytes;
      if (this.#buffered < RELAY_LIMITS.headerBytes) return;
      const header = this.#peek(RELAY_LIMITS.headerBytes);
      const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
      const type = view.getUint8(0);
      const seq = view.getUint32(1);
      const ack = view.getUint32(5);
      const length = view.getUint32(9);
      if (length > this.#maxPayloadBytes || !isRelayFrameType(type)) {
        // Why: an oversize or unknown frame is skipped by its length as it streams past, so a
        // hostile length never makes us buffer (or allocate) what it advertises.
        this.#discard(RELAY_LIMITS.headerBytes);
        result.rejects.push({ reason: length > this.#maxPayloadBytes ? 'oversize' : 'unknown-type', type, length });
        this.#skipRemaining = length;
        continue;
      }
      if (this.#buffered < RELAY_LIMITS.headerBytes + length) {
        this.#needed = RELAY_LIMITS.headerBytes + length;
        return;
      }
      this.#discard(RELAY_LIMITS.headerBytes);
      const payload = this.#take(length);
      result.frames.push({ type, seq, ack, payload });
    }
  }

  /** Copies the first `n` buffered bytes (n is small: a header) without consuming them. */
  #peek(n: number): Uint8Array {
    const first = this.#segments[this.#head];
    if (first && first.end - first.start >= n) return first.bytes.subarray(first.start, first.start + n);
    const out = new Uint8Array(n);
    let filled = 0;
    for (let i = this.#head; filled < n && i < this.#segments.length; i++) {
      const seg = this.#segments[i];
      if (!seg) break;
      const part = Math.min(n - filled, seg.end - seg.start);
      out.set(seg.bytes.subarray(seg.start, seg.start + part), filled);
      filled += part;
    }
    return out;
  }

  /** Consumes `n` bytes: a view when they sit in one segment, else one copy. */
  #take(n: number): Uint8Array {
    const first = this.#segments[this.#head];
    if (n === 0) return new Uint8Array(0);
    if (first && first.end - first.start >= n) {
      const view = first.bytes.subarray(first.start, first.start + n);
      this.#discard(n);
      return view;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const seg = this.#segments[this.#head];
      if (!seg) break;
      const part = Math.min(n - filled, seg.end - seg.start);
      out.set(seg.bytes.subarray(seg.start, seg.start + part), filled);
      filled += part;
      this.#discard(part);
    }
    return out;
  }

  /** Drops up to `n` buffered bytes; returns how many were dropped. */
  #discard(n: number): number {
    let left = n;
    while (left > 0) {
      const seg = this.#segments[this.#head];
      if (!seg) break;
      const part = Math.min(left, seg.end - seg.start);
      seg.start += part;
      left -= part;
      this.#buffered -= part;
      // Why: an owned block may still receive appended chunks, so only a full one is retired.
      if (
        seg.start === seg.end &&
        (!seg.owned || seg.end === seg.bytes.byteLength || this.#head < this.#segments.length - 1)
      ) {
        this.#head++;
      } else if (seg.start === seg.end) {
        break;
      }
    }
    if (this.#head > 64 && this.#head * 2 > this.#segments.length) {
      this.#segments.splice(0, this.#head);
      this.#head = 0;
    }
    return n - left;
  }
}
