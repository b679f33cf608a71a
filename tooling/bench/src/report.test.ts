import { describe, expect, it } from 'vitest';
import { BENCH_LINE_PREFIX, formatBenchTable, parseBenchLine, targetMet } from './report.ts';

describe('bench report', () => {
  it('parses a result line and fills the ratio', () => {
    const line = `${BENCH_LINE_PREFIX}${JSON.stringify({ name: 'x', ours: 30, baseline: 10, target: '<= 4', unit: 'ns' })}`;
    expect(parseBenchLine(line)).toEqual({ name: 'x', ours: 30, baseline: 10, ratio: 3, target: '<= 4', unit: 'ns' });
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

  it('prints the five named columns and a verdict', () => {
    const table = formatBenchTable([{ name: 'decode', ours: 2, baseline: 1, ratio: 2, target: '<= 3', unit: 'ns' }]);
    expect(table.split('\n')).toEqual([
      'name    ours     baseline  ratio  target  met',
      'decode  2.00 ns  1.00 ns   2.000  <= 3    yes',
    ]);
  });
});
