import path from 'node:path';
import { type BenchResult, targetMet } from './report.ts';

/** The bench name of a file: `fleet` for `apps/host/bench/fleet.bench.ts`. */
export function benchNameOf(file: string): string {
  return path.basename(file).replace(/\.bench\.ts$/, '');
}

/**
 * The files `--only NAME` selects: those whose bench name is NAME exactly, else (when none is) those
 * whose name contains it. No NAME → every file.
 *
 * @example
 * selectBenchFiles(['a/bench/fleet.bench.ts', 'b/bench/decode.bench.ts'], 'fleet') // ['a/bench/fleet.bench.ts']
 */
export function selectBenchFiles(files: readonly string[], only: string | undefined): string[] {
  if (only === undefined) return [...files];
  const exact = files.filter((f) => benchNameOf(f) === only);
  return exact.length > 0 ? exact : files.filter((f) => benchNameOf(f).includes(only));
}

/** What a run ends with: 0 when every bench ran and no row missed its target, else 1. */
export function benchExitCode(results: readonly BenchResult[], failedFiles: number): 0 | 1 {
  const missed = results.filter((r) => targetMet(r) === false).length;
  return failedFiles > 0 || missed > 0 ? 1 : 0;
}
