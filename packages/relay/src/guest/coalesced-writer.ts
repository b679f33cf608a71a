import type { Writable } from 'node:stream';

/** A writer whose writes made in one event-loop turn reach the stream as one write. */
export interface CoalescedWriter {
  /** Same contract as `Writable.write`: false once the stream's buffer is past its high-water mark. */
  write(bytes: Uint8Array): boolean;
  /** Hand everything held so far to the stream now (before a shutdown, say). */
  flush(): void;
}

/**
 * Corks `out` at a turn's first write and uncorks it in that turn's check phase (`setImmediate`).
 * Why: a busy guest relay takes many hook POSTs in one poll phase; a write(2) per event, and a
 * wake-up of the host's reader per event, cost more on 2 cores than the events themselves.
 * Backpressure is the stream's own: corked bytes count toward `writableLength`.
 *
 * @example
 * const out = coalescedWriter(process.stdout);
 * out.write(frameA); out.write(frameB); // one writev(2) after this turn's I/O callbacks
 */
export function coalescedWriter(out: Writable): CoalescedWriter {
  let corked = false;
  const flush = (): void => {
    if (!corked) return;
    corked = false;
    out.uncork();
  };
  return {
    write(bytes) {
      if (!corked) {
        corked = true;
        out.cork();
        setImmediate(flush);
      }
      return out.write(bytes);
    },
    flush,
  };
}
