import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELAY_LIMITS } from '../limits.ts';
import { RelayFrameDecoder } from './decoder.ts';
import { encodeRelayFrame, nextRelaySeq, type RelayFrame, RelayFrameType, relaySeqAfter } from './frame.ts';
import { relaySentinel, SentinelScanner } from './sentinel.ts';

const enc = new TextEncoder();

function frame(type: RelayFrame['type'], seq: number, ack: number, text: string): RelayFrame {
  return { type, seq, ack, payload: enc.encode(text) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function decodeAll(chunks: Uint8Array[]) {
  const decoder = new RelayFrameDecoder();
  const frames: Array<{ type: number; seq: number; ack: number; payload: string }> = [];
  const rejects: unknown[] = [];
  for (const c of chunks) {
    const r = decoder.push(c);
    for (const f of r.frames) frames.push({ ...f, payload: Buffer.from(f.payload).toString('hex') });
    rejects.push(...r.rejects);
  }
  return { frames, rejects, buffered: decoder.bufferedBytes };
}

describe('encodeRelayFrame', () => {
  it('writes a 13-byte big-endian header', () => {
    expect(
      Buffer.from(encodeRelayFrame(frame(RelayFrameType.Regular, 0x01020304, 0x0a0b0c0d, 'hi'))).toString('hex'),
    ).toBe('01' + '01020304' + '0a0b0c0d' + '00000002' + '6869');
  });

  it('accepts a payload of exactly the cap and refuses one byte more', () => {
    const max = new Uint8Array(RELAY_LIMITS.maxPayloadBytes);
    expect(encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: max }).length).toBe(RELAY_LIMITS.maxPayloadBytes + 13);
    expect(() =>
      encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: new Uint8Array(RELAY_LIMITS.maxPayloadBytes + 1) }),
    ).toThrow(expect.objectContaining({ code: 'ORCA_WIRE_FRAME_TOO_LARGE' }));
  });

  it('refuses seq/ack that are not u32 and unknown types', () => {
    expect(() => encodeRelayFrame({ type: 1, seq: -1, ack: 0, payload: new Uint8Array() })).toThrow(
      expect.objectContaining({ code: 'ORCA_WIRE_BAD_ARGUMENT' }),
    );
    expect(() => encodeRelayFrame({ type: 1, seq: 2 ** 32, ack: 0, payload: new Uint8Array() })).toThrow();
    expect(() => encodeRelayFrame({ type: 5 as 1, seq: 1, ack: 0, payload: new Uint8Array() })).toThrow();
  });

  it('wraps seq skipping 0 and compares modulo 2^32', () => {
    expect(nextRelaySeq(0)).toBe(1);
    expect(nextRelaySeq(0xffff_ffff)).toBe(1);
    expect(relaySeqAfter(1, 0xffff_fff0)).toBe(true);
    expect(relaySeqAfter(0xffff_fff0, 1)).toBe(false);
    expect(relaySeqAfter(5, 5)).toBe(false);
  });
});

describe('RelayFrameDecoder', () => {
  const frames = [
    frame(RelayFrameType.Regular, 1, 0, '{"jsonrpc":"2.0","method":"a"}'),
    frame(RelayFrameType.KeepAlive, 2, 7, ''),
    frame(RelayFrameType.Handshake, 0, 0, '{"type":"orca-relay-handshake","version":"0.1.0"}'),
    frame(RelayFrameType.Regular, 3, 9, 'x'.repeat(5000)),
  ];
  const stream = concat(frames.map(encodeRelayFrame));

  it('decodes every split point of a multi-frame stream (sentinel in the first chunk) identically', () => {
    const full = concat([enc.encode(`motd garbage\r\n${relaySentinel()}`), stream]);
    const expected = decodeAll([stream]);
    expect(expected.frames).toHaveLength(4);
    for (let split = 0; split <= full.length; split++) {
      const scanner = new SentinelScanner();
      const decoder = new RelayFrameDecoder();
      const got: string[] = [];
      for (const part of [full.subarray(0, split), full.subarray(split)]) {
        const scan = scanner.push(part);
        if (scan.kind !== 'found') continue;
        for (const f of decoder.push(scan.rest).frames)
          got.push(`${f.type}/${f.seq}/${f.ack}/${Buffer.from(f.payload).toString('hex')}`);
      }
      expect(got).toEqual(expected.frames.map((f) => `${f.type}/${f.seq}/${f.ack}/${f.payload}`));
    }
  });

  it('decodes 1-byte chunks and random chunkings identically (property)', () => {
    const oneByte = decodeAll([...stream].map((b) => Uint8Array.of(b)));
    expect(oneByte).toEqual(decodeAll([stream]));
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let at = 0;
        for (const p of [...points, stream.length]) {
          chunks.push(stream.subarray(at, p));
          at = p;
        }
        expect(decodeAll(chunks)).toEqual(oneByte);
      }),
    );
  });

  it('returns a view for a payload inside one chunk and owned copies otherwise', () => {
    const bytes = encodeRelayFrame(frame(RelayFrameType.Regular, 1, 0, 'y'.repeat(8000)));
    const decoded = new RelayFrameDecoder().push(bytes).frames[0];
    expect(decoded?.payload.buffer).toBe(bytes.buffer);
    const split = new RelayFrameDecoder();
    split.push(bytes.subarray(0, 100));
    const copied = split.push(bytes.subarray(100)).frames[0];
    expect(copied?.payload.buffer).not.toBe(bytes.buffer);
    expect(copied?.payload.length).toBe(8000);
  });

  it('skips an oversize frame as it streams past without buffering it, then resumes', () => {
    const decoder = new RelayFrameDecoder();
    const header = new Uint8Array(13);
    const view = new DataView(header.buffer);
    view.setUint8(0, 1);
    view.setUint32(9, RELAY_LIMITS.maxPayloadBytes + 1);
    const first = decoder.push(header);
    expect(first.rejects).toEqual([{ reason: 'oversize', type: 1, length: RELAY_LIMITS.maxPayloadBytes + 1 }]);
    const block = new Uint8Array(1024 * 1024);
    let maxBuffered = 0;
    for (let i = 0; i < 16; i++) {
      expect(decoder.push(block)).toEqual({ frames: [], rejects: [] });
      maxBuffered = Math.max(maxBuffered, decoder.bufferedBytes);
    }
    expect(maxBuffered).toBe(0);
    const next = encodeRelayFrame(frame(RelayFrameType.Regular, 4, 0, 'ok'));
    const tail = decoder.push(concat([Uint8Array.of(0xee), next]));
    expect(tail.rejects).toEqual([]);
    expect(tail.frames.map((f) => Buffer.from(f.payload).toString())).toEqual(['ok']);
  });

  it('accepts a payload of exactly the cap', () => {
    const decoder = new RelayFrameDecoder();
    const r = decoder.push(
      encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: new Uint8Array(RELAY_LIMITS.maxPayloadBytes) }),
    );
    expect(r.rejects).toEqual([]);
    expect(r.frames[0]?.payload.length).toBe(RELAY_LIMITS.maxPayloadBytes);
  });

  it('skips an unknown type by its length', () => {
    const bad = encodeRelayFrame(frame(RelayFrameType.Regular, 1, 0, 'abc'));
    bad[0] = 7;
    const r = decodeAll([concat([bad, encodeRelayFrame(frame(RelayFrameType.KeepAlive, 2, 0, ''))])]);
    expect(r.rejects).toEqual([{ reason: 'unknown-type', type: 7, length: 3 }]);
    expect(r.frames.map((f) => f.type)).toEqual([9]);
  });

  it('never throws on random, truncated or bit-flipped bytes and never buffers an advertised oversize length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 16 }),
        fc.nat({ max: stream.length }),
        fc.nat({ max: stream.length * 8 - 1 }),
        (chunks, cut, bit) => {
          const flipped = stream.slice();
          flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
          for (const input of [chunks, [stream.subarray(0, cut)], [flipped]]) {
            const decoder = new RelayFrameDecoder();
            let total = 0;
            for (const c of input) {
              const r = decoder.push(c);
              total += c.length;
              for (const f of r.frames) expect([1, 2, 9]).toContain(f.type);
              for (const j of r.rejects) expect(['oversize', 'unknown-type']).toContain(j.reason);
              expect(decoder.bufferedBytes).toBeLessThanOrEqual(total);
            }
          }
        },
      ),
    );
  });
});
