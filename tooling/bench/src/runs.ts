import { type BenchResult, displayName, formatFloor, formatNumber, targetBound, targetMet } from './report.ts';

/** One row over every run of `--runs N`: its worst run, its median run, and how many runs had it. */
export interface RunsRow {
  readonly name: string;
  readonly worst: BenchResult;
  readonly median: BenchResult;
  /** Runs that reported the row. */
  readonly seen: number;
  /** Runs made. */
  readonly runs: number;
}

/** `1`: a higher ratio is worse (`<=`, `<`, or no target); `-1`: a lower one is (`>=`, `>`). */
function badness(target: string): 1 | -1 {
  return /^\s*(>=|>|≥)/.test(target) ? -1 : 1;
}

/**
 * Sort key: larger is worse; a ratio that is not a number (a stage that never happened), or a
 * floor target without its floor, is the worst. A floor target is judged by the ratio's distance
 * to its bound in that run, since the floor moves from run to run too.
 */
function worseness(r: BenchResult): number {
  if (Number.isNaN(r.ratio)) return Number.POSITIVE_INFINITY;
  if (!/floor/.test(r.target)) return badness(r.target) * r.ratio;
  const bound = targetBound(r);
  if (bound === null) return Number.POSITIVE_INFINITY;
  return badness(r.target) * (r.ratio - (bound ?? 0));
}

/**
 * Lines up the rows of several runs by name (first-seen order): per row the worst run (by its
 * ratio against the target's direction) and the median run.
 *
 * @example
 * aggregateRuns([[{ name: 'p99', ratio: 0.8, … }], [{ name: 'p99', ratio: 1.3, … }]])[0].worst.ratio // 1.3
 */
export function aggregateRuns(runs: readonly (readonly BenchResult[])[]): RunsRow[] {
  const byName = new Map<string, BenchResult[]>();
  for (const run of runs) {
    for (const r of run) {
      const list = byName.get(r.name) ?? [];
      list.push(r);
      byName.set(r.name, list);
    }
  }
  return [...byName].map(([name, list]) => {
    const sorted = [...list].sort((a, b) => worseness(a) - worseness(b));
    return {
      name,
      worst: sorted[sorted.length - 1] as BenchResult,
      median: sorted[Math.floor((sorted.length - 1) / 2)] as BenchResult,
      seen: list.length,
      runs: runs.length,
    };
  });
}

/**
 * Whether a row held in every run: its worst run met the target and every run reported it (a row
 * with a target missing from a run is a miss); `undefined` for a row without a target.
 */
export function runsRowMet(row: RunsRow): boolean | undefined {
  const met = targetMet(row.worst);
  if (met === undefined) return undefined;
  return met && row.seen === row.runs;
}

/** Renders `name  worst  median  baseline  ratio (worst)  ratio (median)  floor  target  met` (met: in the worst run). */
export function formatRunsTable(rows: readonly RunsRow[]): string {
  const header = ['name (worst run)', 'worst', 'median', 'baseline', 'ratio', 'median ratio', 'floor', 'target', 'met'];
  const cells = rows.map((row) => {
    const met = runsRowMet(row);
    const { worst, median } = row;
    return [
      displayName(worst) + (row.seen < row.runs ? ` [in ${row.seen} of ${row.runs} runs]` : ''),
      formatNumber(worst.ours, worst.unit),
      formatNumber(median.ours, median.unit),
      formatNumber(worst.baseline, worst.unit),
      worst.ratio.toFixed(3),
      median.ratio.toFixed(3),
      formatFloor(worst),
      worst.target,
      met === undefined ? 'info' : met ? 'yes' : 'NO',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => x.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}
