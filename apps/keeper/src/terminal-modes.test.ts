import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModeTracker, modesReplay } from './terminal-modes.ts';

describe('ModeTracker', () => {
  it('follows set and reset of the modes a rebuilt screen needs, several per sequence', () => {
    const t = new ModeTracker();
    t.push('\x1b[?1049h\x1b[?2004hhello\x1b[?25l');
    expect(t.active()).toEqual([1049, 2004]);
    t.push('\x1b[?1049;25h\x1b[?9999h');
    expect(t.active()).toEqual([25, 1049, 2004]);
    t.push('\x1b[?2004l');
    expect(t.active()).toEqual([25, 1049]);
    expect(modesReplay(t.active())).toBe('\x1b[?25h\x1b[?1049h');
  });

  it('reads a sequence split anywhere between chunks the same as whole (property)', () => {
    const text = 'a\x1b[?2004hb\x1b[?1049hc\x1b[?1049ld\x1b[?1000;1006h';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 6 }), (cuts) => {
        const points = [...new Set(cuts)].sort((x, y) => x - y);
        const t = new ModeTracker();
        let at = 0;
        for (const p of [...points, text.length]) {
          t.push(text.slice(at, p));
          at = p;
        }
        expect(t.active()).toEqual([1000, 1006, 2004]);
      }),
    );
  });

  it('never throws and keeps only tracked modes, whatever the output (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 })), (chunks) => {
        const t = new ModeTracker();
        for (const c of chunks) t.push(c);
        for (const m of t.active()) expect([1, 25, 47, 1047, 1049, 1000, 1002, 1003, 1004, 1006, 2004]).toContain(m);
      }),
    );
  });
});
