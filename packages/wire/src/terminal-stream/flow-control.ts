import type { WireClock } from '../clock.ts';
import { TERMINAL_LIMITS } from '../limits.ts';

/** What {@link FlowControl.offer} decided. */
export type FlowDecision = 'send' | 'queued' | 'overflow';

interface StreamFlow<T> {
  window: number;
  inFlight: number;
  queue: Array<{ bytes: number; item: T }>;
  queuedBytes: number;
}

/**
 * Host-side output flow control (pure): per-stream and per-connection windows, a capped pending
 * queue per stream, credits from Acks, round-robin draining. Used only with `ackOutput` granted.
 *
 * @example
 * const flow = new FlowControl<Uint8Array>();
 * flow.addStream(1);
 * if (flow.offer(1, frame.byteLength - 16, frame) === 'send') send(frame);
 * for (const { item } of flow.credit(1, 4096)) send(item);
 */
export class FlowControl<T> {
  readonly #streams = new Map<number, StreamFlow<T>>();
  #connectionWindow: number = TERMINAL_LIMITS.connectionWindowInitialBytes;
  #connectionInFlight = 0;
  #cursor = 0;

  addStream(streamId: number): void {
    this.#streams.set(streamId, {
      window: TERMINAL_LIMITS.streamWindowInitialBytes,
      inFlight: 0,
      queue: [],
      queuedBytes: 0,
    });
  }

  removeStream(streamId: number): void {
    const s = this.#streams.get(streamId);
    if (!s) return;
    this.#connectionInFlight -= s.inFlight;
    this.#streams.delete(streamId);
  }

  /** In-flight bytes of a stream (0 when unknown). */
  inFlight(streamId: number): number {
    return this.#streams.get(streamId)?.inFlight ?? 0;
  }

  /** Current windows (for tests and diagnostics). */
  windows(streamId: number): { stream: number; connection: number } {
    return { stream: this.#streams.get(streamId)?.window ?? 0, connection: this.#connectionWindow };
  }

  #fits(s: StreamFlow<T>, bytes: number): boolean {
    return s.inFlight + bytes <= s.window && this.#connectionInFlight + bytes <= this.#connectionWindow;
  }

  /** Offers `bytes` of output: send now, queue, or overflow (the queue was dropped: resync). */
  offer(streamId: number, bytes: number, item: T): FlowDecision {
    const s = this.#streams.get(streamId);
    if (!s) return 'overflow';
    if (s.queue.length === 0 && this.#fits(s, bytes)) {
      s.inFlight += bytes;
      this.#connectionInFlight += bytes;
      return 'send';
    }
    if (s.queuedBytes + bytes > TERMINAL_LIMITS.pendingQueueCapBytes) {
      this.dropQueue(streamId);
      return 'overflow';
    }
    s.queue.push({ bytes, item });
    s.queuedBytes += bytes;
    return 'queued';
  }

  /** Drops a stream's pending queue (pause or overflow). */
  dropQueue(streamId: number): void {
    const s = this.#streams.get(streamId);
    if (!s) return;
    s.queue = [];
    s.queuedBytes = 0;
  }

  /**
   * Credits `amount` acknowledged bytes (capped at in-flight), grows both windows by the credit up
   * to their max, and returns the queued items now allowed out, drained round-robin.
   */
  credit(streamId: number, amount: number): Array<{ streamId: number; item: T }> {
    const s = this.#streams.get(streamId);
    if (!s || !(amount > 0)) return [];
    const credited = Math.min(s.inFlight, amount);
    s.inFlight -= credited;
    this.#connectionInFlight -= credited;
    s.window = Math.min(TERMINAL_LIMITS.streamWindowMaxBytes, s.window + credited);
    this.#connectionWindow = Math.min(TERMINAL_LIMITS.connectionWindowMaxBytes, this.#connectionWindow + credited);
    return this.#drain();
  }

  #drain(): Array<{ streamId: number; item: T }> {
    const out: Array<{ streamId: number; item: T }> = [];
    const ids = [...this.#streams.keys()];
    let progressed = true;
    while (progressed && ids.length > 0) {
      progressed = false;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[(this.#cursor + k) % ids.length] ?? 0;
        const s = this.#streams.get(id);
        const head = s?.queue[0];
        if (!s || !head || !this.#fits(s, head.bytes)) continue;
        s.queue.shift();
        s.queuedBytes -= head.bytes;
        s.inFlight += head.bytes;
        this.#connectionInFlight += head.bytes;
        out.push({ streamId: id, item: head.item });
        progressed = true;
      }
      this.#cursor = (this.#cursor + 1) % ids.length;
    }
    return out;
  }
}

/**
 * Client-side ack batching: flushes once {@link TERMINAL_LIMITS.clientAckBatchBytes} are pending or
 * {@link TERMINAL_LIMITS.clientAckFlushMs} after the first unflushed byte.
 */
export class AckBatcher {
  readonly #clock: WireClock;
  readonly #flush: (streamId: number, bytes: number) => void;
  readonly #pending = new Map<number, { bytes: number; timer: unknown }>();

  constructor(clock: WireClock, flush: (streamId: number, bytes: number) => void) {
    this.#clock = clock;
    this.#flush = flush;
  }

  /** Records received output bytes of a stream. */
  record(streamId: number, bytes: number): void {
    let p = this.#pending.get(streamId);
    if (!p) {
      p = { bytes: 0, timer: this.#clock.setTimeout(() => this.flush(streamId), TERMINAL_LIMITS.clientAckFlushMs) };
      this.#pending.set(streamId, p);
    }
    p.bytes += bytes;
    if (p.bytes >= TERMINAL_LIMITS.clientAckBatchBytes) this.flush(streamId);
  }

  /** Flushes a stream's pending bytes now. */
  flush(streamId: number): void {
    const p = this.#pending.get(streamId);
    if (!p) return;
    this.#clock.clearTimeout(p.timer);
    this.#pending.delete(streamId);
    if (p.bytes > 0) this.#flush(streamId, p.bytes);
  }

  /** Forgets a stream (unsubscribed or dropped) without flushing. */
  forget(streamId: number): void {
    const p = this.#pending.get(streamId);
    if (p) this.#clock.clearTimeout(p.timer);
    this.#pending.delete(streamId);
  }
}
