import { BENCH_LINE_PREFIX, type BenchResult } from './report.ts';

/**
 * Prints one result for the `pnpm bench` runner (a machine line) and a readable line for a
 * person running the script alone.
 *
 * @example
 * const c = await compareInterleaved(() => decode(frames), () => Buffer.from(bytes));
 * reportBench({ name: 'decode output frames', ...c, target: '<= 3', unit: 'ns' });
 */
export function reportBench(result: Omit<BenchResult, 'ratio' | 'unit'> & { ratio?: number; unit?: string }): void {
  const full: BenchResult = { ratio: result.ours / result.baseline, unit: '', ...result };
  process.stdout.write(`${BENCH_LINE_PREFIX}${JSON.stringify(full)}\n`);
}
