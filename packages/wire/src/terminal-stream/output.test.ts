import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_LIMITS } from '../limits.ts';
import { classifyOutput, splitOutput } from './output.ts';

function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
        continue;
      }
    }
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}

describe('splitOutput', () => {
  it('splits at the 48 KiB boundary exactly', () => {
    const text = 'a'.repeat(TERMINAL_LIMITS.chunkBytes + 1);
    expect(splitOutput(text, 1000 + text.length).map((c) => [c.text.length, c.seq])).toEqual([
      [TERMINAL_LIMITS.chunkBytes, 1000 + TERMINAL_LIMITS.chunkBytes],
      [1, 1000 + text.length],
    ]);
    expect(splitOutput('a'.repeat(TERMINAL_LIMITS.chunkBytes), 5)).toHaveLength(1);
  });

  it('keeps invariants over astral characters and lone surrogates (property)', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', 'é', '€', '😀', '\uD800', '\uDC00', '\uDBFF\uDFFF'),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 60 }).map((a) => a.join('')),
        fc.integer({ min: 4, max: 40 }),
        fc.nat(1e6),
        (text, maxBytes, end) => {
          const endSeq = text.length + end;
          const chunks = splitOutput(text, endSeq, maxBytes);
          expect(chunks.map((c) => c.text).join('')).toBe(text);
          expect(chunks.at(-1)?.seq).toBe(endSeq);
          let offset = endSeq - text.length;
          for (const c of chunks) {
            offset += c.text.length;
            expect(c.seq).toBe(offset);
            expect(utf8Bytes(c.text)).toBeLessThanOrEqual(maxBytes);
            const last = c.text.charCodeAt(c.text.length - 1);
            const next = text.charCodeAt(offset - (endSeq - text.length));
            if (last >= 0xd800 && last <= 0xdbff) expect(next >= 0xdc00 && next <= 0xdfff).toBe(false);
          }
        },
      ),
    );
  });
});

describe('classifyOutput', () => {
  it.each([
    [undefined, 10, 5, 'accept'],
    [5, 10, 5, 'accept'],
    [4, 10, 5, 'gap'],
    [10, 10, 5, 'duplicate'],
    [12, 10, 5, 'duplicate'],
    [7, 10, 5, 'overlap'],
  ] as const)('expected %s, seq %i, rawLength %i → %s', (expected, seq, raw, want) => {
    expect(classifyOutput(expected, seq, raw)).toBe(want);
  });
});
