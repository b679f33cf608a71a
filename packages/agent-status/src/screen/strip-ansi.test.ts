import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from './strip-ansi.ts';

describe('stripAnsi and cursor moves', () => {
  it('a cursor move between words becomes one space (Claude Code positions words with CHA)', () => {
    expect(stripAnsi('Quick\x1b[8Gsafety\x1b[15Gcheck:')).toBe('Quick safety check:');
    expect(stripAnsi('\x1b[2G\x1b[38;5;246mEnter\x1b[8Gto\x1b[11Gconfirm\x1b[39m')).toBe('Enter to confirm');
  });

  it('adds no space at the line start or next to one already there', () => {
    expect(stripAnsi('\x1b[3Gword \x1b[1Cnext')).toBe('word next');
  });

  it('CUP inside a line separates words too (Codex positions words with CUP)', () => {
    expect(stripAnsi('I\x1b[12;5Hwill\x1b[12;10Hrun')).toBe('I will run');
  });

  it('colours alone still vanish without a space', () => {
    expect(stripAnsi('re\x1b[31md\x1b[0m')).toBe('red');
  });

  it('never leaves an ESC or a control byte but TAB (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => !/[\x00-\x08\x0a-\x1f\x7f]/.test(stripAnsi(s))),
    );
  });
});
