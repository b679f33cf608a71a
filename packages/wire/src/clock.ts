/** Injected time source: the only way `@orca/wire` reads time or schedules work. */
export interface WireClock {
  /** Milliseconds, monotonic enough for timeouts. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The default clock: `Date.now` and the global timers (handles are `unref`ed when possible). */
export const systemClock: WireClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    // Why: `unknown`, so this typechecks with the DOM's number handles as well as Node's objects.
    const handle: unknown = setTimeout(fn, ms);
    // Why: a pending keepalive or timeout must not keep a finished process alive.
    if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function')
      handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/**
 * A manual clock for tests and deterministic harnesses: time moves only through `advance`.
 *
 * @example
 * const clock = createManualClock();
 * clock.setTimeout(() => console.log('fired'), 10);
 * clock.advance(10); // prints "fired"
 */
export function createManualClock(start = 0): WireClock & { advance(ms: number): void; pending(): number } {
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
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let nextKey: number | undefined;
        let nextAt = Number.POSITIVE_INFINITY;
        for (const [key, t] of timers) {
          if (t.at <= target && t.at < nextAt) {
            nextAt = t.at;
            nextKey = key;
          }
        }
        if (nextKey === undefined) break;
        const timer = timers.get(nextKey);
        timers.delete(nextKey);
        now = nextAt;
        timer?.fn();
      }
      now = target;
    },
    pending: () => timers.size,
  };
}
