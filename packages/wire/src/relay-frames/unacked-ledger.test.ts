import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnackedLedger } from './unacked-ledger.ts';

describe('UnackedLedger', () => {
  it('an ack covers every seq up to it; the oldest outstanding send time is what is left', () => {
    const ledger = new UnackedLedger();
    expect(ledger.oldestSentAt()).toBeUndefined();
    ledger.sent(1, 100);
    ledger.sent(2, 200);
    ledger.sent(3, 300);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([3, 100]);
    ledger.acked(2);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([1, 300]);
    ledger.acked(1);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([1, 300]);
    ledger.acked(3);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([0, undefined]);
  });

  it('compares seqs modulo 2³² across the wrap (seq 0 is skipped)', () => {
    const ledger = new UnackedLedger();
    ledger.sent(0xffff_fffe, 1);
    ledger.sent(0xffff_ffff, 2);
    ledger.sent(1, 3);
    ledger.acked(0xffff_ffff);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([1, 3]);
    ledger.acked(1);
    expect(ledger.size).toBe(0);
  });

  it('keeps at most maxRecords, forgetting the oldest', () => {
    const ledger = new UnackedLedger(2);
    ledger.sent(1, 10);
    ledger.sent(2, 20);
    ledger.sent(3, 30);
    expect([ledger.size, ledger.oldestSentAt()]).toEqual([2, 20]);
  });

  it('matches a plain list model for any interleaving of sends and acks (through compaction)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 40 }), { maxLength: 4000 }), (acks) => {
        const ledger = new UnackedLedger(1500);
        let model: Array<{ seq: number; sentAt: number }> = [];
        let seq = 0;
        for (const [i, gap] of acks.entries()) {
          seq++;
          ledger.sent(seq, i);
          model.push({ seq, sentAt: i });
          if (model.length > 1500) model.shift();
          if (gap % 3 === 0) {
            const ack = Math.max(0, seq - gap);
            ledger.acked(ack);
            model = model.filter((r) => r.seq > ack);
          }
          expect([ledger.size, ledger.oldestSentAt()]).toEqual([model.length, model[0]?.sentAt]);
        }
      }),
      { numRuns: 20 },
    );
  });
});
