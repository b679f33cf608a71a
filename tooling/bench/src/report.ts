/** One benchmark row: `ours` and `baseline` in the same unit, measured in the same run. */
export interface BenchResult {
  name: string;
  ours: number;
  baseline: number;
  /** `ours / baseline` unless the bench sets it (for example a throughput ratio). */
  ratio: number;
  /** Human-readable target, `<= 1.5` or `>= 0.5`, judged against `ratio`. */
  target: string;
  unit: string;
  /**
   * What varies from run to run (sample counts, p50s), shown after the name; the name alone stays
   * the same in every run, so `--runs N` can line a row's runs up.
   */
  detail?: string;
}

/** Prefix of the machine-readable line a bench script prints for each result. */
export const BENCH_LINE_PREFIX = 'ORCA_BENCH\t';

/** Parses one stdout line of a bench script; `undefined` for anything that is not a result. */
export function parseBenchLine(line: string): BenchResult | undefined {
  if (!line.startsWith(BENCH_LINE_PREFIX)) return undefined;
  try {
    const value = JSON.parse(line.slice(BENCH_LINE_PREFIX.length)) as Partial<BenchResult>;
    if (typeof value.name !== 'string' || typeof value.ours !== 'number' || typeof value.baseline !== 'number') {
      return undefined;
    }
    return {
      name: value.name,
      ours: value.ours,
      baseline: value.baseline,
      ratio: typeof value.ratio === 'number' ? value.ratio : value.ours / value.baseline,
      target: typeof value.target === 'string' ? value.target : '',
      unit: typeof value.unit === 'string' ? value.unit : '',
      ...(typeof value.detail === 'string' && value.detail !== '' ? { detail: value.detail } : {}),
    };
  } catch {
    return undefined;
  }
}

/** `true`/`false` when the target reads `<= N`, `< N`, `>= N` or `> N`; `undefined` otherwise. */
export function targetMet(result: BenchResult): boolean | undefined {
  const match = /^\s*(<=|>=|<|>|≤|≥)\s*([0-9.]+)/.exec(result.target);
  if (!match) return undefined;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '<=':
    case '≤':
      return result.ratio <= bound;
    case '<':
      return result.ratio < bound;
    case '>=':
    case '≥':
      return result.ratio >= bound;
    default:
      return result.ratio > bound;
  }
}

/** A row's name with its run's detail, as the tables print it. */
export function displayName(r: Pick<BenchResult, 'name' | 'detail'>): string {
  return r.detail ? `${r.name} (${r.detail})` : r.name;
}

/** A number with its unit, as the tables print it. */
export function formatNumber(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 2 : 4;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

/** Renders the `name  ours  baseline  ratio  target` table, one row per result. */
export function formatBenchTable(results: readonly BenchResult[]): string {
  const header = ['name', 'ours', 'baseline', 'ratio', 'target', 'met'];
  const rows = results.map((r) => {
    const met = targetMet(r);
    return [
      displayName(r),
      formatNumber(r.ours, r.unit),
      formatNumber(r.baseline, r.unit),
      r.ratio.toFixed(3),
      r.target,
      met === undefined ? 'info' : met ? 'yes' : 'NO',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
