import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_LIMITS } from '../limits.ts';
import { decodeFrame, decodeFrameView, encodeFrame, encodeTextFrame } from './frame.ts';
import { encodeTextPayload } from './text-codec.ts';

/** Text with astral characters, lone surrogates and multi-byte code points. */
const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00', '\r', '\n'), maxLength: 200 }),
);
const streamIdArb = fc.oneof(
  fc.constantFrom(0, 1, 2 ** 32 - 1, 2 ** 32, -1, 0.5, Number.NaN),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
);
const seqArb = fc.oneof(
  fc.constantFrom(0, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53 + 2, -5, 1.7, Number.NaN, Number.POSITIVE_INFINITY),
  fc.double(),
  fc.nat(),
);

function outcome(fn: () => Uint8Array): { bytes: string } | { code: unknown; message: string } {
  try {
    return { bytes: Buffer.from(fn()).toString('hex') };
  } catch (err) {
    return { code: (err as { code?: unknown }).code, message: (err as Error).message };
  }
}

describe('encodeTextFrame equals encodeFrame(encodeTextPayload(text))', () => {
  it('same bytes or the same WireError, for any opcode, streamId, seq and text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), streamIdArb, seqArb, textArb, (opcode, streamId, seq, text) => {
        const want = outcome(() => encodeFrame({ opcode, streamId, seq, payload: encodeTextPayload(text) }));
        expect(outcome(() => encodeTextFrame(opcode, streamId, seq, text))).toEqual(want);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses an Output one byte over the chunk limit and accepts exactly the limit, like encodeFrame', () => {
    const at = 'é'.repeat(TERMINAL_LIMITS.chunkBytes / 2);
    expect(encodeTextFrame(1, 1, 1, at).byteLength).toBe(TERMINAL_LIMITS.headerBytes + TERMINAL_LIMITS.chunkBytes);
    expect(outcome(() => encodeTextFrame(1, 1, 1, `${at}x`))).toEqual(
      outcome(() => encodeFrame({ opcode: 1, streamId: 1, seq: 1, payload: encodeTextPayload(`${at}x`) })),
    );
  });

  it('returns an owned plain Uint8Array, never a view into a shared pool', () => {
    const bytes = encodeTextFrame(1, 1, 1, 'hi');
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });
});

describe('decodeFrame header reads', () => {
  it('streamId and seq equal a DataView reading of the same bytes, at any byteOffset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 40 }), fc.nat({ max: 7 }), (raw, pad) => {
        raw[0] = 0x74;
        raw[1] = 1;
        raw[2] = 1;
        const host = new Uint8Array(pad + raw.length);
        host.set(raw, pad);
        const r = decodeFrame(host.subarray(pad));
        const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
        expect(r.ok && r.value).toEqual({
          opcode: 1,
          streamId: view.getUint32(4, true),
          seq: view.getUint32(8, true) * 2 ** 32 + view.getUint32(12, true),
          payload: raw.slice(16),
        });
      }),
    );
  });
});

describe('decodeFrameView (the client receive path) equals decodeFrame', () => {
  it('same result on random, truncated and bit-flipped frames; the payload is a view, decodeFrame a copy', () => {
    const frameArb = fc
      .tuple(fc.integer({ min: 0, max: 20 }), fc.nat(), fc.nat(), textArb, fc.nat({ max: 40 }), fc.nat({ max: 400 }))
      .map(([opcode, streamId, seq, text, cut, flip]) => {
        const bytes = encodeFrame({ opcode: 1, streamId, seq, payload: encodeTextPayload(text) });
        bytes[2] = opcode;
        const flipped = bytes.slice(0, Math.max(0, bytes.length - cut));
        const at = flip % Math.max(1, flipped.length);
        if (flipped.length > 0) flipped[at] = (flipped[at] ?? 0) ^ (1 << (flip % 8));
        return flipped;
      });
    fc.assert(
      fc.property(fc.oneof(frameArb, fc.uint8Array({ maxLength: 40 })), (bytes) => {
        const copy = decodeFrame(bytes);
        const view = decodeFrameView(bytes);
        expect(view).toEqual(copy);
        if (view.ok && copy.ok && view.value.payload.length > 0) {
          expect(view.value.payload.buffer).toBe(bytes.buffer);
          expect(copy.value.payload.buffer).not.toBe(bytes.buffer);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
