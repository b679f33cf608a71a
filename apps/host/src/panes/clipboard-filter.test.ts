import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClipboardFilter } from './clipboard-filter.ts';

const whole = (text: string): string => createClipboardFilter().push(text);
const split = (text: string, cuts: number[]): string => {
  const f = createClipboardFilter();
  let out = '';
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    out += f.push(text.slice(from, cut));
    from = cut;
  }
  return out + f.push(text.slice(from));
};

describe('OSC 52 clipboard filter', () => {
  it.each([
    ['BEL', 'a\x1b]52;c;cGF5bG9hZA==\x07b', 'ab'],
    ['ESC \\', 'a\x1b]52;c;cGF5bG9hZA==\x1b\\b', 'ab'],
    ['C1 introducer and ST', 'a\u009d52;c;eA==\u009cb', 'ab'],
    ['a read request', 'x\x1b]52;c;?\x07y', 'xy'],
    ['other OSCs pass', '\x1b]0;title\x07\x1b]8;;http://x\x07', '\x1b]0;title\x07\x1b]8;;http://x\x07'],
    ['OSC 520 is not 52', '\x1b]520;x\x07', '\x1b]520;x\x07'],
  ])('%s', (_label, input, expected) => {
    expect(whole(input)).toBe(expected);
  });

  it('any split of the stream gives the output of the whole, and no OSC 52 survives (property)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      fc.constantFrom('\x1b]52;c;', '\u009d52;', '\x07', '\x1b\\', '\u009c', '\x1b', '\x1b]0;t\x07', 'aGk='),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const text = pieces.join('');
        const out = whole(text);
        expect(split(text, cuts)).toBe(out);
        expect(out.includes('\x1b]52;') || out.includes('\u009d52;')).toBe(false);
      }),
    );
  });

  it('never swallows more than the cap after an unterminated sequence', () => {
    const f = createClipboardFilter();
    expect(f.push('\x1b]52;c;')).toBe('');
    expect(f.push('A'.repeat(1 << 20))).toBe('');
    expect(f.push('B'.repeat(10))).toBe('B'.repeat(10));
  });
});
