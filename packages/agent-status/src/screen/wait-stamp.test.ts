import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WAIT_CHECK_MIN_INTERVAL_MS } from '../limits.ts';
import { createWaitStamp } from './wait-stamp.ts';

const UPDATE = 'Update available! 1.0 -> 1.1\r\n\r\n  Press enter to continue\r\n';
const MENU = 'Run this command?\r\n  → Run (once) (y)\r\n    Skip (esc or n)\r\n';

describe('createWaitStamp', () => {
  it('stamps when a prompt appears, not while it stays', () => {
    const s = createWaitStamp();
    expect(s.append('building\r\n', 0)).toEqual({ waitBlockedAt: null });
    expect(s.append(UPDATE, 100)).toEqual({ waitBlockedAt: 100 });
    expect(s.append('', 200)).toEqual({ waitBlockedAt: 100 });
    expect(s.waitBlockedAt).toBe(100);
  });

  it('a later repeat of the prompt restamps; a vanished one returning restamps', () => {
    const s = createWaitStamp();
    s.append(MENU, 100);
    expect(s.append(`\r\nok\r\n${MENU}`, 300)).toEqual({ waitBlockedAt: 300 });
    s.append('done, moving on\r\n', 400);
    expect(s.append(MENU, 500)).toEqual({ waitBlockedAt: 500 });
  });

  it('prime sets the baseline without stamping; reset clears both', () => {
    const s = createWaitStamp();
    s.prime(UPDATE);
    expect(s.append('', 1000)).toEqual({ waitBlockedAt: null });
    s.reset();
    expect(s.waitBlockedAt).toBe(null);
    expect(s.append('\r\n', 2000)).toEqual({ waitBlockedAt: null });
    expect(s.append(UPDATE, 3000)).toEqual({ waitBlockedAt: 3000 });
  });

  it('throttles scans to one per interval and asks for a trailing flush', () => {
    const s = createWaitStamp();
    s.append('a\r\n', 1000);
    // The keyword head scans at once (nothing complete yet)…
    expect(s.append('Do you trust the contents of /home/user/projects/some/deep/path', 1010)).toEqual({
      waitBlockedAt: null,
    });
    // …the completing chunk has no keyword head within the carry, so it is throttled…
    expect(s.append(' directory?\r\n', 1020)).toEqual({
      waitBlockedAt: null,
      recheckAt: 1010 + WAIT_CHECK_MIN_INTERVAL_MS,
    });
    // …and the trailing flush runs the scan and stamps.
    expect(s.flush(1060)).toEqual({ waitBlockedAt: 1060 });
    expect(s.flush(1200)).toEqual({ waitBlockedAt: 1060 });
  });

  it('a keyword head scans at once, also when split across chunks (carry)', () => {
    const s = createWaitStamp();
    s.append('Update available!\r\n  Press ent', 1000);
    // Inside the throttle interval, but `press ent` + `er to continue` completes a keyword head.
    expect(s.append('er to continue\r\n', 1010)).toEqual({ waitBlockedAt: 1010 });
  });

  it('property: any split stamps once, at the completing chunk', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: UPDATE.length }), { maxLength: 6 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(UPDATE.slice(prev, p));
          prev = p;
        }
        chunks.push(UPDATE.slice(prev));
        const s = createWaitStamp();
        const stamps: number[] = [];
        let t = 0;
        let completing = -1;
        for (const [i, c] of chunks.entries()) {
          t += WAIT_CHECK_MIN_INTERVAL_MS; // never throttled
          const before = s.waitBlockedAt;
          const r = s.append(c, t);
          if (r.waitBlockedAt !== before && r.waitBlockedAt !== null) stamps.push(r.waitBlockedAt);
          if (
            completing < 0 &&
            chunks
              .slice(0, i + 1)
              .join('')
              .includes('continue')
          )
            completing = t;
        }
        expect(stamps).toEqual([completing]);
      }),
    );
  });
});
