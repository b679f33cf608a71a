import { GUEST_EVENT_QUEUE_SUPERSEDE_BYTES } from '../constants.ts';

interface Queued<T> {
  paneKey: string;
  bytes: number;
  item: T;
}

/**
 * FIFO of events held back while the transport is backpressured. Past `maxBytes`, only each
 * pane's latest event stays (order otherwise kept); each removed one counts as superseded.
 */
export class SupersedingQueue<T> {
  private items: Queued<T>[] = [];
  private totalBytes = 0;
  /** Events removed because a later event of the same pane was queued. */
  superseded = 0;

  constructor(private readonly maxBytes: number = GUEST_EVENT_QUEUE_SUPERSEDE_BYTES) {}

  get length(): number {
    return this.items.length;
  }

  push(paneKey: string, bytes: number, item: T): void {
    this.items.push({ paneKey, bytes, item });
    this.totalBytes += bytes;
    if (this.totalBytes > this.maxBytes) this.compact();
  }

  /** Remove and return the oldest item. */
  shift(): T | undefined {
    const q = this.items.shift();
    if (q === undefined) return undefined;
    this.totalBytes -= q.bytes;
    return q.item;
  }

  private compact(): void {
    const seen = new Set<string>();
    const kept: Queued<T>[] = [];
    for (let i = this.items.length - 1; i >= 0; i--) {
      const q = this.items[i];
      if (q === undefined) continue;
      if (seen.has(q.paneKey)) {
        this.superseded += 1;
        this.totalBytes -= q.bytes;
        continue;
      }
      seen.add(q.paneKey);
      kept.push(q);
    }
    this.items = kept.reverse();
  }
}
