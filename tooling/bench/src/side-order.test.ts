import { describe, expect, it } from 'vitest';
import { sideOrder, sideOrderCycle } from './side-order.ts';

/** Over one cycle: how often each side leads, and how often side b runs right after side a. */
function tally(n: number) {
  const leads = new Array<number>(n).fill(0);
  const follows = new Map<string, number>();
  for (let round = 0; round < sideOrderCycle(n); round++) {
    const order = sideOrder(round, n);
    const lead = order[0] ?? -1;
    leads[lead] = (leads[lead] ?? 0) + 1;
    for (let k = 1; k < n; k++) {
      const pair = `${order[k - 1]}>${order[k]}`;
      follows.set(pair, (follows.get(pair) ?? 0) + 1);
    }
  }
  return { leads, follows };
}

describe('sideOrder', () => {
  it('runs every side once per round', () => {
    for (let n = 1; n <= 9; n++) {
      for (let round = 0; round < 3 * sideOrderCycle(n); round++) {
        expect([...sideOrder(round, n)].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      }
    }
  });

  it('over a cycle, each side leads equally often and follows each other side equally often', () => {
    for (let n = 2; n <= 9; n++) {
      const { leads, follows } = tally(n);
      expect(new Set(leads).size).toBe(1);
      // Every ordered pair of distinct sides occurs, each the same number of times.
      expect(follows.size).toBe(n * (n - 1));
      expect(new Set(follows.values()).size).toBe(1);
    }
  });

  it('no longer lets one side always follow the same one (the plain rotation did)', () => {
    // Three sides: the floor comparison's ours, floor, baseline.
    const { follows } = tally(3);
    expect(follows.get('2>0')).toBe(follows.get('2>1'));
  });
});
