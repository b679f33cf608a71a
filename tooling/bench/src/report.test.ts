import { describe, expect, it } from 'vitest';
import { BENCH_LINE_PREFIX, formatBenchTable, parseBenchLine, targetMet } from './report.ts';

describe('bench report', () => {
  it('parses a result line and fills the ratio', () => {
    const line = `${BENCH_LINE_PREFIX}${JSON.stringify({ name: 'x', ours: 30, baseline: 10, target: '<= 4', unit: 'ns' })}`;
    expect(parseBenchLine(line)).toEqual({ name: 'x', ours: 30, baseline: 10, ratio: 3, target: '<= 4', unit: 'ns' });
  });

  it("keeps a row's detail apart from its name and prints it after the name", () => {
    const line = `${BENCH_LINE_PREFIX}${JSON.stringify({ name: 'p99', ours: 3, baseline: 1, target: '<= 4', unit: 'ms', detail: 'p50 1 ms' })}`;
    const parsed = parseBenchLine(line);
    expect(parsed).toEqual({
      name: 'p99',
      ours: 3,
      baseline: 1,
      ratio: 3,
      target: '<= 4',
      unit: 'ms',
      detail: 'p50 1 ms',
    });
    expect(formatBenchTable([parsed as never]).split('\n')[1]).toBe(
      'p99 (p50 1 ms)  3.00 ms  1.00 ms   3.000  -      <= 4    yes',
    );
  });

  it('ignores other lines and broken JSON', () => {
    expect(parseBenchLine('hello')).toBeUndefined();
    expect(parseBenchLine(`${BENCH_LINE_PREFIX}{nope`)).toBeUndefined();
    expect(parseBenchLine(`${BENCH_LINE_PREFIX}{"name":1}`)).toBeUndefined();
  });

  it('judges <= and >= targets', () => {
    const base = { name: 'n', ours: 1, baseline: 1, unit: '' };
    expect(targetMet({ ...base, ratio: 2, target: '<= 2' })).toBe(true);
    expect(targetMet({ ...base, ratio: 2.1, target: '≤ 2' })).toBe(false);
    expect(targetMet({ ...base, ratio: 0.4, target: '>= 0.5' })).toBe(false);
    expect(targetMet({ ...base, ratio: 0.4, target: 'report only' })).toBeUndefined();
  });

  it('prints the named columns and a verdict', () => {
    const table = formatBenchTable([{ name: 'decode', ours: 2, baseline: 1, ratio: 2, target: '<= 3', unit: 'ns' }]);
    expect(table.split('\n')).toEqual([
      'name    ours     baseline  ratio  floor  target  met',
      'decode  2.00 ns  1.00 ns   2.000  -      <= 3    yes',
    ]);
  });

  it('judges a target derived from the floor measured in the same run, and prints the floor beside it', () => {
    const base = { name: 'n', ours: 1, baseline: 1, unit: '' };
    expect(targetMet({ ...base, ratio: 1.3, floor: 1.2, target: '<= floor × 1.15' })).toBe(true);
    expect(targetMet({ ...base, ratio: 1.4, floor: 1.2, target: '<= floor × 1.15' })).toBe(false);
    expect(targetMet({ ...base, ratio: 1.4, floor: 1.2, target: '<= floor + 0.25' })).toBe(true);
    expect(targetMet({ ...base, ratio: 1.2, floor: 1.2, target: '<= floor' })).toBe(true);
    expect(targetMet({ ...base, ratio: 0.5, floor: 0.9, target: '>= floor * 0.5' })).toBe(true);
    // Misspelt targets are not read as some other bound.
    expect(targetMet({ ...base, ratio: 1, floor: 2, target: '<= floor - 0.5' })).toBeUndefined();
    expect(targetMet({ ...base, ratio: 1, floor: 2, target: '<= 1.15 × floor' })).toBeUndefined();
    expect(targetMet({ ...base, ratio: 1, floor: 2, target: '<= floorish' })).toBeUndefined();
    expect(targetMet({ ...base, ratio: 1, floor: 2, target: '<= floor + .' })).toBeUndefined();
    // A floor target whose floor was not measured is a miss, never a pass.
    expect(targetMet({ ...base, ratio: 0.1, target: '<= floor × 2' })).toBe(false);
    const line = `${BENCH_LINE_PREFIX}${JSON.stringify({ name: 'osc', ours: 13, baseline: 10, floor: 1.2, target: '<= floor × 1.15' })}`;
    const parsed = parseBenchLine(line);
    expect(parsed?.floor).toBe(1.2);
    expect(formatBenchTable([parsed as never]).split('\n')[1]).toBe(
      'osc   13.00  10.00     1.300  1.200  <= floor × 1.15  yes',
    );
  });
});
