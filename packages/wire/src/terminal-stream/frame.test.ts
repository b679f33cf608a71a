import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_LIMITS } from '../limits.ts';
import { negotiate } from './capabilities.ts';
import { createFrameDecoder, decodeFrame, encodeFrame, FRAME_REJECT_REASONS } from './frame.ts';
import { decodeJsonPayload, encodeJsonPayload } from './json-payload.ts';
import { KNOWN_OPCODES, OPCODE_INFO, Opcode } from './opcodes.ts';
import { decodeTextPayload } from './text-codec.ts';

const _ungated = [...KNOWN_OPCODES].filter((o) => !OPCODE_INFO[o as keyof typeof OPCODE_INFO].gate);
const full = negotiate(
  { ackOutput: 1, desktopViewportClaims: 1, outputPause: 1, writeUnavailable: 1 },
  { clientType: 'desktop', sourceRanges: false },
);

describe('terminal frame codec', () => {
  it('encodes the spec worked example byte-exact (grant holding writeUnavailable)', () => {
    const grant = negotiate({ writeUnavailable: 1 }, { clientType: 'desktop', sourceRanges: false });
    const bytes = encodeFrame(
      {
        opcode: Opcode.WriteUnavailable,
        streamId: 0x78563412,
        seq: 2 ** 32 + 0x89abcdef,
        payload: Uint8Array.of(0xaa),
      },
      grant,
    );
    expect(Buffer.from(bytes).toString('hex')).toBe('7401110012345678' + '01000000efcdab89' + 'aa');
    expect(() =>
      encodeFrame(
        { opcode: Opcode.WriteUnavailable, streamId: 1, seq: 0, payload: new Uint8Array() },
        negotiate({}, { clientType: 'desktop', sourceRanges: false }),
      ),
    ).toThrow(expect.objectContaining({ code: 'ORCA_WIRE_NOT_NEGOTIATED' }));
  });

  it('lays out the header little-endian (worked example shape with an ungated opcode)', () => {
    const bytes = encodeFrame({
      opcode: Opcode.OutputSpan,
      streamId: 0x78563412,
      seq: 2 ** 32 + 0x89abcdef,
      payload: Uint8Array.of(0xaa),
    });
    expect(Buffer.from(bytes).toString('hex')).toBe('74010f0012345678' + '01000000efcdab89' + 'aa');
  });

  it('round-trips opcodes × streamIds × seqs including the 2^32 and 2^53−1 edges (property)', () => {
    const seqs = fc.oneof(
      fc.constantFrom(0, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER),
      fc.maxSafeNat(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...KNOWN_OPCODES),
        fc.oneof(fc.constantFrom(0, 1, 2 ** 32 - 1), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
        seqs,
        fc.uint8Array({ maxLength: 64 }),
        (opcode, streamId, seq, payload) => {
          const decoded = decodeFrame(encodeFrame({ opcode, streamId, seq, payload }, full));
          expect(decoded).toEqual({ ok: true, value: { opcode, streamId, seq, payload } });
        },
      ),
    );
  });

  it('clamps seq to max(0, floor(seq))', () => {
    for (const [seq, want] of [
      [-5, 0],
      [3.9, 3],
      [Number.NaN, 0],
      [2 ** 60, Number.MAX_SAFE_INTEGER],
    ] as const) {
      const r = decodeFrame(encodeFrame({ opcode: 1, streamId: 1, seq, payload: new Uint8Array() }));
      expect(r.ok && r.value.seq).toBe(want);
    }
  });

  it('honours a subarray byteOffset and never aliases the input', () => {
    const bytes = encodeFrame({ opcode: 1, streamId: 9, seq: 7, payload: Uint8Array.of(1, 2, 3) });
    const padded = new Uint8Array(bytes.length + 10);
    padded.set(bytes, 5);
    const r = decodeFrame(padded.subarray(5, 5 + bytes.length));
    expect(r).toEqual({ ok: true, value: { opcode: 1, streamId: 9, seq: 7, payload: Uint8Array.of(1, 2, 3) } });
    padded[5 + 16] = 99;
    expect(r.ok && r.value.payload[0]).toBe(1);
  });

  it('refuses caller bugs: gated opcode without grant, bad streamId, oversize text', () => {
    expect(() => encodeFrame({ opcode: Opcode.Ack, streamId: 1, seq: 0, payload: new Uint8Array() })).toThrow(
      expect.objectContaining({ code: 'ORCA_WIRE_NOT_NEGOTIATED' }),
    );
    expect(() =>
      encodeFrame(
        { opcode: Opcode.Ack, streamId: 1, seq: 0, payload: new Uint8Array() },
        { capabilities: ['ackOutput'], has: () => true },
      ),
    ).toThrow(expect.objectContaining({ code: 'ORCA_WIRE_NOT_NEGOTIATED' }));
    expect(() => encodeFrame({ opcode: 1, streamId: -1, seq: 0, payload: new Uint8Array() })).toThrow(
      expect.objectContaining({ code: 'ORCA_WIRE_BAD_STREAM_ID' }),
    );
    expect(() => encodeFrame({ opcode: 1, streamId: 2 ** 32, seq: 0, payload: new Uint8Array() })).toThrow();
    expect(
      encodeFrame({ opcode: 1, streamId: 1, seq: 0, payload: new Uint8Array(TERMINAL_LIMITS.chunkBytes) }).length,
    ).toBe(TERMINAL_LIMITS.chunkBytes + 16);
    expect(() =>
      encodeFrame({ opcode: 1, streamId: 1, seq: 0, payload: new Uint8Array(TERMINAL_LIMITS.chunkBytes + 1) }),
    ).toThrow(expect.objectContaining({ code: 'ORCA_WIRE_FRAME_TOO_LARGE' }));
  });

  it('reaches every header reject reason', () => {
    const good = encodeFrame({ opcode: 1, streamId: 1, seq: 0, payload: new Uint8Array() });
    const with_ = (i: number, v: number) => {
      const b = good.slice();
      b[i] = v;
      return b;
    };
    expect(decodeFrame(good.subarray(0, 15))).toEqual({ ok: false, reason: 'short' });
    expect(decodeFrame(with_(0, 0x75))).toEqual({ ok: false, reason: 'bad-kind' });
    expect(decodeFrame(with_(1, 2))).toEqual({ ok: false, reason: 'bad-version' });
    expect(decodeFrame(with_(2, 18))).toEqual({ ok: false, reason: 'unknown-opcode', detail: '18' });
    expect(decodeFrame(with_(2, 0))).toEqual({ ok: false, reason: 'unknown-opcode', detail: '0' });
    expect(createFrameDecoder({ opcodes: [2] }).decode(good)).toEqual({
      ok: false,
      reason: 'unknown-opcode',
      detail: '1',
    });
    expect(decodeFrame(with_(3, 0xff)).ok).toBe(true);
  });

  it('never throws on random, truncated or bit-flipped bytes (property)', () => {
    const sample = encodeFrame({ opcode: 2, streamId: 3, seq: 99, payload: encodeJsonPayload({ kind: 'scrollback' }) });
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 80 }),
        fc.nat({ max: sample.length }),
        fc.nat({ max: sample.length * 8 - 1 }),
        (random, cut, bit) => {
          const flipped = sample.slice();
          flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
          for (const input of [random, sample.subarray(0, cut), flipped]) {
            const r = decodeFrame(input);
            if (!r.ok) expect(FRAME_REJECT_REASONS).toContain(r.reason);
            if (r.ok) {
              const j = decodeJsonPayload(r.value.payload);
              if (!j.ok) expect(FRAME_REJECT_REASONS).toContain(j.reason);
              expect(typeof decodeTextPayload(r.value.payload)).toBe('string');
            }
          }
        },
      ),
    );
  });

  it('pins the opcode table (append only)', () => {
    expect(
      Object.entries(OPCODE_INFO).map(
        ([n, i]) => `${n} ${i.name} ${i.direction} ${i.payload} ${i.gate ?? '-'} ${i.since}`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "1 Output host-to-client text - 0.1.0",
        "2 SnapshotStart host-to-client json - 0.1.0",
        "3 SnapshotChunk host-to-client text - 0.1.0",
        "4 SnapshotEnd host-to-client empty - 0.1.0",
        "5 Resized host-to-client json - 0.1.0",
        "6 Error host-to-client text - 0.1.0",
        "7 Input client-to-host text - 0.1.0",
        "8 Resize client-to-host json - 0.1.0",
        "9 Subscribe client-to-host json - 0.1.0",
        "10 Unsubscribe client-to-host empty - 0.1.0",
        "11 SnapshotRequest client-to-host json - 0.1.0",
        "12 Metadata host-to-client json - 0.1.0",
        "13 Ack client-to-host json ackOutput 0.1.0",
        "14 ClaimViewport client-to-host json desktopViewportClaims 0.1.0",
        "15 OutputSpan host-to-client json - 0.1.0",
        "16 SetOutputPaused client-to-host json outputPause 0.2.0",
        "17 WriteUnavailable host-to-client empty writeUnavailable 0.2.0",
      ]
    `);
  });
});

describe('JSON payload limits', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('depth 32 passes, 33 fails', () => {
    expect(decodeJsonPayload(bytes('['.repeat(32) + ']'.repeat(32))).ok).toBe(true);
    expect(decodeJsonPayload(bytes('['.repeat(33) + ']'.repeat(33)))).toEqual({ ok: false, reason: 'json-too-deep' });
  });

  it('262,144 structural tokens pass, one more fails; structure inside strings never counts', () => {
    const limit = TERMINAL_LIMITS.maxJsonStructuralTokens;
    // "[" + "0," * (n-2)/... : build an array with exactly `tokens` structural tokens: [ ] plus commas.
    const arr = (tokens: number) => `[${'0,'.repeat(tokens - 2)}0]`;
    expect(decodeJsonPayload(bytes(arr(limit))).ok).toBe(true);
    expect(decodeJsonPayload(bytes(arr(limit + 1)))).toEqual({ ok: false, reason: 'json-too-many-tokens' });
    const inString = JSON.stringify({ s: `{[,:]}\\"${'[{,:'.repeat(limit)}` });
    expect(decodeJsonPayload(bytes(inString)).ok).toBe(true);
  });

  it('8 MiB passes, one byte more fails before parsing', () => {
    const max = TERMINAL_LIMITS.maxJsonBytes;
    const str = (n: number) => bytes(`"${'a'.repeat(n - 2)}"`);
    expect(decodeJsonPayload(str(max)).ok).toBe(true);
    expect(decodeJsonPayload(str(max + 1))).toEqual({ ok: false, reason: 'json-too-large' });
  });

  it('bad UTF-8 and bad syntax are json-invalid; encode refuses what a peer would reject', () => {
    expect(decodeJsonPayload(Uint8Array.of(0x22, 0xff, 0x22))).toEqual({ ok: false, reason: 'json-invalid' });
    expect(decodeJsonPayload(bytes('{"a":'))).toEqual({ ok: false, reason: 'json-invalid' });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(() => encodeJsonPayload(deep)).toThrow(expect.objectContaining({ code: 'ORCA_WIRE_JSON_LIMIT' }));
    expect(new TextDecoder().decode(encodeJsonPayload({ a: undefined, b: 1 }))).toBe('{"b":1}');
  });
});
