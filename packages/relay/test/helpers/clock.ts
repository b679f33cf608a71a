import type { RelayClock } from '../../src/listener/types.ts';

/** A manual clock: timers fire only on `advance`. */
export interface ManualClock extends RelayClock {
  advance(ms: number): void;
  pending(): number;
}

/** Create a manual clock starting at `start` epoch ms. */
export function manualClock(start = 1_700_000_000_000): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(h) {
      timers.delete(h as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let best: [number, { at: number; fn: () => void }] | undefined;
        for (const e of timers) if (e[1].at <= target && (best === undefined || e[1].at < best[1].at)) best = e;
        if (best === undefined) break;
        timers.delete(best[0]);
        now = best[1].at;
        best[1].fn();
      }
      now = target;
    },
    pending: () => timers.size,
  };
}
