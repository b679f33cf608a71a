import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELAY_LIMITS } from '../limits.ts';
import { RelayFrameDecoder } from './decoder.ts';
import { encodeRelayFrame, RelayFrameType } from './frame.ts';

/** A small cap so oversize frames are cheap to generate. */
const MAX = 64;

/** One wire unit: a valid frame, an oversize header + its skipped payload, or an unknown type. */
const unitArb = fc.oneof(
  fc
    .record({
      type: fc.constantFrom(RelayFrameType.Regular, RelayFrameType.Handshake, RelayFrameType.KeepAlive),
      seq: fc.nat(),
      ack: fc.nat(),
      payload: fc.uint8Array({ maxLength: MAX }),
    })
    .map((f) => encodeRelayFrame(f)),
  fc.record({ extra: fc.integer({ min: 1, max: 40 }), type: fc.constantFrom(1, 3, 200) }).map(({ extra, type }) => {
    const out = new Uint8Array(13 + MAX + extra);
    out[0] = type;
    new DataView(out.buffer).setUint32(9, MAX + extra);
    return out;
  }),
  fc.record({ type: fc.constantFrom(0, 3, 8, 255), payload: fc.uint8Array({ maxLength: 20 }) }).map((u) => {
    const out = new Uint8Array(13 + u.payload.length);
    out[0] = u.type;
    new DataView(out.buffer).setUint32(9, u.payload.length);
    out.set(u.payload, 13);
    return out;
  }),
);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Cuts `bytes` at the given sizes (cycled), mixing empty, 1-byte, small and ≥ 4 KiB chunks. */
function split(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    // Why: a 0 size pushes an empty chunk and then one byte, so the split always makes progress.
    if (size === 0) out.push(bytes.subarray(at, at));
    const step = Math.max(1, size);
    out.push(bytes.subarray(at, at + step));
    at += step;
  }
  return out;
}

function run(chunks: Uint8Array[]) {
  const decoder = new RelayFrameDecoder({ maxPayloadBytes: MAX });
  const frames: unknown[] = [];
  const rejects: unknown[] = [];
  const buffered: number[] = [];
  for (const c of chunks) {
    const r = decoder.push(c);
    for (const f of r.frames) frames.push({ ...f, payload: Buffer.from(f.payload).toString('hex') });
    rejects.push(...r.rejects);
    buffered.push(decoder.bufferedBytes);
  }
  return { frames, rejects, buffered: decoder.bufferedBytes, maxBuffered: Math.max(0, ...buffered) };
}

describe('RelayFrameDecoder small-chunk fast path', () => {
  it('decodes any chunking (1-byte, small, empty, ≥ 4 KiB, a trailing partial frame) like one chunk', () => {
    fc.assert(
      fc.property(
        fc.array(unitArb, { maxLength: 40 }),
        fc.array(fc.oneof(fc.constant(1), fc.nat({ max: 30 }), fc.constant(RELAY_LIMITS.ownedBlockBytes)), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.nat({ max: 12 }),
        (units, sizes, partial) => {
          const whole = concat([...units, encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: new Uint8Array(9) })]);
          const bytes = whole.subarray(0, whole.length - partial);
          const expected = run([bytes]);
          const got = run(split(bytes, sizes));
          expect(got.frames).toEqual(expected.frames);
          expect(got.rejects).toEqual(expected.rejects);
          expect(got.buffered).toBe(expected.buffered);
          // Oversize payloads are never buffered: at most one frame of the cap plus a header is held.
          expect(got.maxBuffered).toBeLessThanOrEqual(13 + MAX);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('byte-at-a-time pushes report bufferedBytes exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 30 }), (payload) => {
        const bytes = encodeRelayFrame({ type: 1, seq: 7, ack: 3, payload });
        const decoder = new RelayFrameDecoder();
        for (let i = 0; i < bytes.length - 1; i++) {
          expect(decoder.push(bytes.subarray(i, i + 1)).frames).toEqual([]);
          expect(decoder.bufferedBytes).toBe(i + 1);
        }
        const last = decoder.push(bytes.subarray(bytes.length - 1));
        expect(last.frames.map((f) => Buffer.from(f.payload).toString('hex'))).toEqual([
          Buffer.from(payload).toString('hex'),
        ]);
        expect(decoder.bufferedBytes).toBe(0);
      }),
    );
  });
});
