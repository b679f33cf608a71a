/**
 * The prompt deliveries of a host in flight, and the signal that tells them the host is stopping:
 * one that has written its text sends its submit key at once and stops waiting for proof (a stored
 * or spooled hook proves it at the next start); one that has not written stops with nothing written.
 */
export interface Deliveries {
  readonly stopping: AbortSignal;
  /** Follows `delivery` until it settles; returns it. */
  track<T>(delivery: Promise<T>): Promise<T>;
  /** Signals the stop, then waits up to `graceMs` for every delivery in flight to settle. */
  stop(graceMs: number): Promise<void>;
}

/** A fresh registry (one per host). */
export function createDeliveries(): Deliveries {
  const controller = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  return {
    stopping: controller.signal,
    track(delivery) {
      const settled = delivery.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return delivery;
    },
    async stop(graceMs) {
      controller.abort();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
