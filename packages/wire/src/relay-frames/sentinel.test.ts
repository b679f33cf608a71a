import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELAY_PROTOCOL_VERSION } from '../compat/versions.ts';
import { RELAY_LIMITS } from '../limits.ts';
import { relaySentinel, SentinelScanner } from './sentinel.ts';

const enc = new TextEncoder();

function scanAll(chunks: Uint8Array[]) {
  const s = new SentinelScanner();
  let found: { version: string; rest: string } | undefined;
  let last = 'waiting';
  for (const c of chunks) {
    const r = s.push(c);
    last = r.kind;
    if (r.kind === 'found') found = { version: r.version, rest: (found?.rest ?? '') + Buffer.from(r.rest).toString() };
  }
  return { last, found };
}

describe('SentinelScanner', () => {
  it('prints the protocol version', () => {
    expect(relaySentinel()).toBe(`ORCA-RELAY v${RELAY_PROTOCOL_VERSION} READY\n`);
  });

  it('finds the sentinel across every split, after garbage, with \\r\\n', () => {
    const input = enc.encode(`Welcome ORCA-RELAY x ORCA\r\n${relaySentinel('0.1.0').replace('\n', '\r\n')}{"after":1}`);
    for (let a = 0; a <= input.length; a++) {
      const r = scanAll([input.subarray(0, a), input.subarray(a)]);
      expect(r).toEqual({ last: 'found', found: { version: '0.1.0', rest: '{"after":1}' } });
    }
    const bytewise = scanAll([...input].map((b) => Uint8Array.of(b)));
    expect(bytewise.found).toEqual({ version: '0.1.0', rest: '{"after":1}' });
  });

  it('reports other versions for the caller to check', () => {
    expect(scanAll([enc.encode(relaySentinel('9.9.9'))]).found?.version).toBe('9.9.9');
  });

  it('accepts exactly 64 KiB before the sentinel and overflows at one more byte', () => {
    const ok = scanAll([new Uint8Array(RELAY_LIMITS.maxBytesBeforeSentinel).fill(0x2e), enc.encode(relaySentinel())]);
    expect(ok.last).toBe('found');
    const over = scanAll([
      new Uint8Array(RELAY_LIMITS.maxBytesBeforeSentinel + 1).fill(0x2e),
      enc.encode(relaySentinel()),
    ]);
    expect(over.last).toBe('overflow');
    const s = new SentinelScanner();
    for (let i = 0; i < 64; i++) expect(s.push(new Uint8Array(1024).fill(0x4f)).kind).toBe('waiting');
    // Why: the last 'O' may still start a sentinel with exactly 64 KiB before it.
    expect(s.push(Uint8Array.of(0x4f)).kind).toBe('waiting');
    expect(s.push(Uint8Array.of(0x2e))).toEqual({
      kind: 'overflow',
      bytesBeforeSentinel: RELAY_LIMITS.maxBytesBeforeSentinel + 2,
    });
  });

  it('keeps only a short tail between pushes', () => {
    const s = new SentinelScanner();
    // Why: the tail is private; the observable bound is that 1 MiB of near-misses stays linear and waiting.
    const nearMiss = enc.encode('ORCA-RELAY v0.1.0 READ!'.repeat(100));
    expect(s.push(nearMiss).kind).toBe('waiting');
    expect(s.push(enc.encode(relaySentinel())).kind).toBe('found');
  });

  it('never throws on random bytes and only reports valid states (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 128 }), { maxLength: 20 }), (chunks) => {
        const s = new SentinelScanner();
        for (const c of chunks) expect(['waiting', 'found', 'overflow']).toContain(s.push(c).kind);
      }),
    );
  });
});
