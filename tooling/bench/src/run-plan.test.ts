import { describe, expect, it } from 'vitest';
import { benchExitCode, benchNameOf, selectBenchFiles } from './run-plan.ts';

const files = [
  'apps/host/bench/fleet.bench.ts',
  'apps/host/bench/load-100-panes.bench.ts',
  'packages/wire/bench/frames.bench.ts',
];
const row = (ratio: number, target: string) => ({ name: 'r', ours: ratio, baseline: 1, ratio, target, unit: '' });

describe('bench run plan', () => {
  it('names a bench by its file', () => {
    expect(benchNameOf('apps/host/bench/fleet.bench.ts')).toBe('fleet');
  });

  it('--only picks the exact name first, else every name containing it, else nothing', () => {
    expect(selectBenchFiles(files, 'fleet')).toEqual(['apps/host/bench/fleet.bench.ts']);
    expect(selectBenchFiles(files, 'load')).toEqual(['apps/host/bench/load-100-panes.bench.ts']);
    expect(selectBenchFiles(files, 'nope')).toEqual([]);
    expect(selectBenchFiles(files, undefined)).toEqual(files);
  });

  it('exits 1 when a row misses its target or a bench failed; rows without a target never fail', () => {
    expect(benchExitCode([row(2, '<= 3'), row(5, 'info')], 0)).toBe(0);
    expect(benchExitCode([row(2, '<= 3'), row(4, '<= 3')], 0)).toBe(1);
    expect(benchExitCode([row(2, '<= 3')], 1)).toBe(1);
  });
});
