import { REPLAY_CACHE_MAX_BYTES, REPLAY_CACHE_MAX_PANES } from '../constants.ts';
import type { HookEvent } from '../listener/types.ts';

interface Entry {
  event: HookEvent;
  bytes: number;
}

/**
 * paneKey → last event, ordered by recency (each update deletes then re-inserts). Bounded by
 * panes and bytes; the longest-idle pane is evicted first.
 */
export class ReplayCache {
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(
    private readonly maxPanes: number = REPLAY_CACHE_MAX_PANES,
    private readonly maxBytes: number = REPLAY_CACHE_MAX_BYTES,
  ) {}

  /** Remember `event` as its pane's latest. */
  set(event: HookEvent, bytes: number): void {
    const old = this.entries.get(event.paneKey);
    if (old !== undefined) {
      this.entries.delete(event.paneKey);
      this.totalBytes -= old.bytes;
    }
    this.entries.set(event.paneKey, { event, bytes });
    this.totalBytes += bytes;
    while (this.entries.size > this.maxPanes || (this.totalBytes > this.maxBytes && this.entries.size > 0)) {
      const first = this.entries.keys().next();
      if (first.done === true) break;
      const e = this.entries.get(first.value);
      this.entries.delete(first.value);
      this.totalBytes -= e?.bytes ?? 0;
    }
  }

  /** Events oldest first. */
  events(): HookEvent[] {
    return [...this.entries.values()].map((e) => e.event);
  }

  /** Number of panes held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.totalBytes;
  }
}
