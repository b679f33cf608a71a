// The sender's record of frames the relay peer has not acked yet, for the dead-link check.
import { RELAY_LIMITS } from '../limits.ts';
import { relaySeqAfter } from './frame.ts';

/** Records kept before the consumed head of the list is spliced away. */
const COMPACT_AFTER_RECORDS = 1024;

/**
 * Frames sent and not yet covered by the peer's `ack`, oldest first (seq and time both increase).
 * Holds at most `maxRecords` (the oldest is forgotten beyond it); each operation is amortised O(1).
 *
 * @example
 * const ledger = new UnackedLedger();
 * ledger.sent(1, clock.now());
 * ledger.acked(frame.ack);
 * const dead = ledger.oldestSentAt() !== undefined && now - ledger.oldestSentAt()! > deadAfterMs;
 */
export class UnackedLedger {
  readonly #records: Array<{ seq: number; sentAt: number }> = [];
  #head = 0;
  readonly #maxRecords: number;

  constructor(maxRecords: number = RELAY_LIMITS.maxUnackedRecords) {
    this.#maxRecords = maxRecords;
  }

  /** A frame with `seq` went out at `sentAt`. */
  sent(seq: number, sentAt: number): void {
    this.#records.push({ seq, sentAt });
    if (this.#records.length - this.#head > this.#maxRecords) this.#head++;
    this.#compact();
  }

  /** The peer acked every seq up to `ack` (compared modulo 2³²). */
  acked(ack: number): void {
    while (this.#head < this.#records.length) {
      const record = this.#records[this.#head];
      if (record === undefined || relaySeqAfter(record.seq, ack)) break;
      this.#head++;
    }
    this.#compact();
  }

  /** When the oldest un-acked frame went out; `undefined` when the peer has acked everything. */
  oldestSentAt(): number | undefined {
    return this.#records[this.#head]?.sentAt;
  }

  /** Frames outstanding. */
  get size(): number {
    return this.#records.length - this.#head;
  }

  #compact(): void {
    if (this.#head > COMPACT_AFTER_RECORDS && this.#head * 2 > this.#records.length) {
      this.#records.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
