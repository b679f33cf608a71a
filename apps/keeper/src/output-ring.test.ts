import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputRing } from './output-ring.ts';

describe('OutputRing', () => {
  it('gives a reattaching host exactly the output after the position it saw', () => {
    const ring = new OutputRing(100);
    ring.append('hello ');
    const seen = ring.append('world');
    ring.append('!');
    expect(ring.since(seen)).toEqual({ from: 11, to: 12, data: '!', truncated: false });
    expect(ring.since(0)).toEqual({ from: 0, to: 12, data: 'hello world!', truncated: false });
    expect(ring.since(99)).toEqual({ from: 12, to: 12, data: '', truncated: false });
  });

  it('drops the oldest output past its bound and says so', () => {
    const ring = new OutputRing(10);
    ring.append('aaaa');
    ring.append('bbbb');
    ring.append('cccc');
    expect(ring.since(0)).toEqual({ from: 4, to: 12, data: 'bbbbcccc', truncated: true });
    ring.append('x'.repeat(25));
    expect(ring.since(0)).toEqual({ from: 27, to: 37, data: 'x'.repeat(10), truncated: true });
  });

  it('whatever was appended, what it keeps is the tail of the whole output, within the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        (chunks, max) => {
          const ring = new OutputRing(max);
          for (const c of chunks) ring.append(c);
          const all = chunks.join('');
          const slice = ring.since(0);
          expect(slice.to).toBe(all.length);
          expect(slice.data.length).toBeLessThanOrEqual(max);
          expect(all.slice(slice.from)).toBe(slice.data);
          expect(slice.truncated).toBe(slice.from > 0);
        },
      ),
    );
  });

  it('paged with maxChars, the pages join to the whole slice and never split a surrogate pair (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40, unit: 'binary' }), { maxLength: 40 }),
        fc.integer({ min: 2, max: 50 }),
        fc.integer({ min: 0, max: 400 }),
        (chunks, page, from) => {
          const ring = new OutputRing(300);
          for (const c of chunks) ring.append(c);
          const whole = ring.since(from);
          let at = from;
          let joined = '';
          for (;;) {
            const p = ring.since(at, page);
            if (p.data.length > 0) {
              const last = p.data.charCodeAt(p.data.length - 1);
              if (p.more) expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
            }
            joined += p.data;
            if (!p.more) break;
            expect(p.to).toBeGreaterThan(at);
            at = p.to;
          }
          expect(joined).toBe(whole.data);
        },
      ),
    );
  });

  it('shrunk, it keeps the newest output and positions go on counting', () => {
    const ring = new OutputRing(100);
    ring.append('0123456789');
    ring.append('abcdef');
    ring.shrink(4);
    expect(ring.since(0)).toEqual({ from: 12, to: 16, data: 'cdef', truncated: true });
    expect(ring.append('g')).toBe(17);
    expect(ring.since(16)).toEqual({ from: 16, to: 17, data: 'g', truncated: false });
  });

  it('a kept tail never starts with the second half of a surrogate pair (shrink, and a chunk past the bound)', () => {
    const ring = new OutputRing(100);
    ring.append(`a${'😀'.repeat(10)}`);
    ring.shrink(5);
    expect(ring.since(0).data).toBe('😀😀');
    const small = new OutputRing(5);
    small.append(`${'😀'.repeat(10)}`);
    expect(small.since(0).data).toBe('😀😀');
  });
});
