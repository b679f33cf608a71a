import type { Writable } from 'node:stream';

/** A writer whose writes after the first of an event-loop turn reach the stream as one write. */
export interface CoalescedWriter {
  /** Same contract as `Writable.write`: false once the stream's buffer is past its high-water mark. */
  write(bytes: Uint8Array): boolean;
  /** Hand everything held so far to the stream now (before a shutdown, say). */
  flush(): void;
}

/**
 * A turn's first write goes straight to `out`; then `out` is corked until that turn's check phase
 * (`setImmediate`), so the rest of the turn's writes leave as one. Why: a busy guest relay takes
 * many hook POSTs in one poll phase, and a write(2) per event, and a wake-up of the host's reader
 * per event, cost more on 2 cores than the events themselves; a lone event must not wait for the
 * check phase (corking it too put its frame behind its own 204, and its added p99 rose ~0.5 ms).
 * Backpressure is the stream's own: corked bytes count toward `writableLength`.
 *
 * @example
 * const out = coalescedWriter(process.stdout);
 * out.write(frameA); // written now
 * out.write(frameB); out.write(frameC); // one writev(2) after this turn's I/O callbacks
 */
export function coalescedWriter(out: Writable): CoalescedWriter {
  let holding = false;
  const flush = (): void => {
    if (!holding) return;
    holding = false;
    out.uncork();
  };
  return {
    write(bytes) {
      if (holding) return out.write(bytes);
      const ok = out.write(bytes);
      holding = true;
      out.cork();
      setImmediate(flush);
      return ok;
    },
    flush,
  };
}
