import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCH_WINDOW_CHARS, MATCH_WINDOW_LINES } from '../limits.ts';
import { findBlockedSignal } from './blocked-signal.ts';
import { type MatchWindow, normalizeLine, type WindowLine, windowFromScreen, windowFromTail } from './match-window.ts';

// The straightforward reading of §5 (slice the bounded tail, split bottom-up, normalize each line):
// the single-pass window extraction must give exactly this.
function referenceWindow(tail: string | readonly string[]): MatchWindow {
  const lines: WindowLine[] = [];
  const collect = (text: string, base: number): boolean => {
    let end = text.length;
    for (;;) {
      const nl = end > 0 ? text.lastIndexOf('\n', end - 1) : -1;
      const line = normalizeLine(text.slice(nl + 1, end), base + nl + 1);
      if (line) {
        lines.push(line);
        if (lines.length >= MATCH_WINDOW_LINES) return true;
      }
      if (nl < 0) return false;
      end = nl;
    }
  };
  if (typeof tail === 'string') {
    const base = Math.max(0, tail.length - MATCH_WINDOW_CHARS);
    collect(tail.slice(base), base);
  } else {
    let budget = MATCH_WINDOW_CHARS;
    let end = 0;
    for (let i = tail.length - 1; i >= 0 && budget > 0; i--) {
      const piece = tail[i];
      const text = typeof piece === 'string' ? piece : '';
      const take = text.length > budget ? text.slice(text.length - budget) : text;
      end -= take.length + 1;
      budget -= take.length + 1;
      if (collect(take, end)) break;
    }
  }
  lines.reverse();
  return { lines, from: 'tail' };
}

const piece = fc.oneof(
  fc.constantFrom(
    '\n',
    '\r\n',
    '\r',
    '\x1b[31m',
    '\x1b[0m',
    '│',
    '  ',
    '\t',
    'Press enter to continue',
    'Run (once) (y)',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const text = fc.array(piece, { maxLength: 80 }).map((parts) => parts.join(''));

describe('windowFromTail (single pass) ≡ the reference split', () => {
  it('string tails', () => {
    fc.assert(
      fc.property(text, (tail) => {
        expect(windowFromTail(tail)).toEqual(referenceWindow(tail));
      }),
      { numRuns: 400 },
    );
  });

  it('array tails', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), (tail) => {
        expect(windowFromTail(tail)).toEqual(referenceWindow(tail));
      }),
      { numRuns: 300 },
    );
  });

  it('tails past MATCH_WINDOW_CHARS (the bound cuts inside a line)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 900 }), text, (width, bottom) => {
        const long = `${'x'.repeat(width)}\n`.repeat(Math.ceil((MATCH_WINDOW_CHARS + 50) / (width + 1)));
        const tail = long + bottom;
        expect(windowFromTail(tail)).toEqual(referenceWindow(tail));
        const asArray = tail.split('\n');
        expect(windowFromTail(asArray)).toEqual(referenceWindow(asArray));
      }),
      { numRuns: 60 },
    );
  });
});

describe('frozen screens are read once', () => {
  const rows = [
    '  Do you trust the files in this folder?',
    '  /home/u/repo',
    '❯ 1. Yes, proceed',
    '  2. No, exit',
    '  Enter to confirm · Esc to exit',
  ];

  it('the same frozen window comes back for the same frozen mirror, equal to a fresh read', () => {
    const mirror = Object.freeze([...rows]);
    const first = windowFromScreen(mirror);
    expect(windowFromScreen(mirror)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.lines)).toBe(true);
    expect(first).toEqual(windowFromScreen([...rows]));
    // An open array is read afresh every time (it may change).
    const open = [...rows];
    expect(windowFromScreen(open)).not.toBe(windowFromScreen(open));
  });

  it("a frozen window's signal is found once and handed out as a copy, equal to a fresh search", () => {
    const window = windowFromScreen(Object.freeze([...rows]));
    const a = findBlockedSignal(window);
    const b = findBlockedSignal(window);
    expect(a).not.toBeNull();
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a).toEqual(findBlockedSignal(windowFromScreen([...rows])));
  });
});

describe('right-edge decoration', () => {
  it('drops a scrollbar thumb or drawn cursor after a gap, keeps a block glyph inside the text', () => {
    expect(normalizeLine('   › 1. Yes, allow once                                █', 3)?.text).toBe(
      '› 1. yes, allow once',
    );
    expect(normalizeLine('> fix the tests █', 0)?.text).toBe('> fix the tests');
    expect(normalizeLine('  progress ███░░ 60%', 0)?.text).toBe('progress ███░░ 60%');
    expect(normalizeLine('                █', 0)).toBeNull();
  });
});
