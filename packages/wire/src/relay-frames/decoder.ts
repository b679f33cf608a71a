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

const EMPTY = new Uint8Array(0);
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
    this.#sync();
    return this.#buffered;
  }

  /** Feeds transport bytes; returns every frame completed and every frame rejected. */
  push(chunk: Uint8Array): RelayDecodeResult {
    // Why: the hot case (a small chunk that fits the current owned block and completes nothing) is
    // one bounds check and one copy, with no allocation, so tiny transport chunks stay cheap.
    const n = chunk.length;
    const end = this.#fastEnd;
    if (n <= this.#fastLimit - end) {
      if (n === 1) this.#fastBytes[end] = chunk[0] ?? 0;
      else this.#fastBytes.set(chunk, end);
      this.#fastEnd = end + n;
      return NOTHING;
    }
    this.#sync();
    const result = this.#pushSlow(chunk);
    this.#rearm();
    return result;
  }

  #pushSlow(chunk: Uint8Array): RelayDecodeResult {
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

  /** Folds bytes the fast path appended into the tail segment and the buffered count. */
  #sync(): void {
    const tail = this.#tail;
    if (tail === undefined) return;
    this.#buffered += this.#fastEnd - tail.end;
    tail.end = this.#fastEnd;
  }

  /** Re-arms the fast path: appends may fill the tail block up to one byte short of `#needed`. */
  #rearm(): void {
    const tail = this.#tail;
    if (tail === undefined || this.#skipRemaining > 0) {
      // Why: `#sync` reads `#fastEnd` as the tail's end, so it must stay equal to it while disarmed.
      this.#fastBytes = EMPTY;
      this.#fastEnd = tail === undefined ? 0 : tail.end;
      this.#fastLimit = -1;
      return;
    }
    this.#fastBytes = tail.bytes;
    this.#fastEnd = tail.end;
    this.#fastLimit = Math.min(tail.bytes.length, tail.end + (this.#needed - this.#buffered) - 1);
  }

  /** Fast-path state (see {@link push}): the tail block, its end, and the exclusive append limit. */
  #fastBytes: Uint8Array = EMPTY;
  #fastEnd = 0;
  #fastLimit = -1;

  /** Bytes needed before the next frame can complete (header, then header + payload). */
  #needed: number = RELAY_LIMITS.headerBytes;
  /** The last segment when it is an owned block that still has room; small chunks go there. */
  #tail: Segment | undefined = undefined;

  #append(chunk: Uint8Array): void {
    this.#buffered += chunk.byteLength;
    if (chunk.byteLength >= RELAY_LIMITS.ownedBlockBytes) {
      this.#segments.push({ bytes: chunk, start: 0, end: chunk.byteLength, owned: false });
      this.#tail = undefined;
      return;
    }
    const last = this.#tail;
    if (last !== undefined && last.bytes.byteLength - last.end >= chunk.byteLength) {
      last.bytes.set(chunk, last.end);
      last.end += chunk.byteLength;
      return;
    }
    const block = new Uint8Array(RELAY_LIMITS.ownedBlockBytes);
    block.set(chunk, 0);
    const segment: Segment = { bytes: block, start: 0, end: chunk.byteLength, owned: true };
    this.#segments.push(segment);
    this.#tail = segment;
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
      const first = this.#segments[this.#head];
      // Why: a header inside one segment is read in place; only a split header is copied (13 bytes).
      const contiguous = first !== undefined && first.end - first.start >= RELAY_LIMITS.headerBytes;
      const header = contiguous ? first.bytes : this.#peek(RELAY_LIMITS.headerBytes);
      const at = contiguous ? first.start : 0;
      const type = header[at] ?? 0;
      const seq = readU32BE(header, at + 1);
      const ack = readU32BE(header, at + 5);
      const length = readU32BE(header, at + 9);
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

/** Caller guarantees `offset + 4 <= bytes.length`. */
function readU32BE(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset] ?? 0) * 0x1000000 +
    (((bytes[offset + 1] ?? 0) << 16) | ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0))
  );
}
