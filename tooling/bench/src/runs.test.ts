import { describe, expect, it } from 'vitest';
import type { BenchResult } from './report.ts';
import { aggregateRuns, formatRunsTable, runsRowMet } from './runs.ts';

const r = (name: string, ratio: number, target: string, detail?: string): BenchResult => ({
  name,
  ours: ratio * 10,
  baseline: 10,
  ratio,
  target,
  unit: 'ms',
  ...(detail ? { detail } : {}),
});

describe('bench runs', () => {
  it('picks the worst run by the target direction and the median run, per row name', () => {
    const rows = aggregateRuns([
      [r('p99', 0.5, '<= 1', 'run 1'), r('throughput', 0.9, '>= 0.5')],
      [r('p99', 1.2, '<= 1', 'run 2'), r('throughput', 0.4, '>= 0.5')],
      [r('p99', 0.7, '<= 1', 'run 3'), r('throughput', 0.8, '>= 0.5')],
    ]);
    expect(rows.map((x) => [x.name, x.worst.ratio, x.median.ratio, x.seen])).toEqual([
      ['p99', 1.2, 0.7, 3],
      ['throughput', 0.4, 0.8, 3],
    ]);
    expect(rows.map(runsRowMet)).toEqual([false, false]);
  });

  it('counts a stage that never happened (NaN) as the worst, and a row missing from a run as a miss', () => {
    const rows = aggregateRuns([[r('p99', 0.5, '<= 1'), r('info', 3, '-')], [r('p99', Number.NaN, '<= 1')], []]);
    expect(Number.isNaN(rows[0]?.worst.ratio)).toBe(true);
    expect(rows.map(runsRowMet)).toEqual([false, undefined]);
    expect(runsRowMet(aggregateRuns([[r('p99', 0.5, '<= 1')], []])[0] as never)).toBe(false);
  });

  it("prints the worst run next to the median run, with the worst run's detail", () => {
    const table = formatRunsTable(aggregateRuns([[r('p99', 0.5, '<= 1', 'p50 2')], [r('p99', 0.9, '<= 1', 'p50 4')]]));
    expect(table.split('\n')).toEqual([
      'name (worst run)  worst    median   baseline  ratio  median ratio  floor  target  met',
      'p99 (p50 4)       9.00 ms  5.00 ms  10.00 ms  0.900  0.500         -      <= 1    yes',
    ]);
  });

  it("judges a floor target by the distance to its own run's bound, not by the ratio alone", () => {
    const withFloor = (ratio: number, floor: number): BenchResult => ({ ...r('osc', ratio, '<= floor × 1.1'), floor });
    // Run 2 has the highest ratio but its floor rose too; run 3 is the one over its bound.
    const rows = aggregateRuns([[withFloor(1.2, 1.15)], [withFloor(1.5, 1.5)], [withFloor(1.4, 1.2)]]);
    expect(rows[0]?.worst.ratio).toBe(1.4);
    expect(runsRowMet(rows[0] as never)).toBe(false);
    expect(runsRowMet(aggregateRuns([[withFloor(1.2, 1.15)], [withFloor(1.5, 1.5)]])[0] as never)).toBe(true);
    expect(formatRunsTable(rows).split('\n')[1]).toContain('1.200  <= floor × 1.1');
  });
});
