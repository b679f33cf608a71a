/** One benchmark row: `ours` and `baseline` in the same unit, measured in the same run. */
export interface BenchResult {
  name: string;
  ours: number;
  baseline: number;
  /** `ours / baseline` unless the bench sets it (for example a throughput ratio). */
  ratio: number;
  /**
   * Human-readable target judged against `ratio`: a fixed bound (`<= 1.5`, `>= 0.5`) or one
   * derived from the row's `floor` (`<= floor × 1.15`, `<= floor + 0.5`).
   */
  target: string;
  /**
   * The ratio, against the same baseline and in the same run, of the least work the row's job
   * needs (for example: find the frames and strip them, without validating); printed beside the
   * row. A target that names `floor` is missed when the row has none.
   */
  floor?: number;
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
      ...(typeof value.floor === 'number' ? { floor: value.floor } : {}),
    };
  } catch {
    return undefined;
  }
}

const TARGET_PATTERN =
  /^\s*(<=|>=|<|>|≤|≥)\s*(?:(floor)(?:\s*([×x*+])\s*([0-9]+(?:\.[0-9]+)?))?|([0-9]+(?:\.[0-9]+)?))(?=\s*$|\s+\()/;

/**
 * The bound a target sets: a number, `floor × k` / `floor + k` of the row's floor; `null` when the
 * target names a floor the row lacks; `undefined` for a target that is not a bound (`info`).
 */
export function targetBound(result: Pick<BenchResult, 'target' | 'floor'>): number | null | undefined {
  const match = TARGET_PATTERN.exec(result.target);
  if (!match) return undefined;
  if (match[2] === undefined) return Number(match[5]);
  if (typeof result.floor !== 'number' || !Number.isFinite(result.floor)) return null;
  const k = match[4] === undefined ? undefined : Number(match[4]);
  if (k === undefined) return result.floor;
  return match[3] === '+' ? result.floor + k : result.floor * k;
}

/** `true`/`false` when the target reads `<= N`, `< N`, `>= N`, `> N` (or a floor bound); `undefined` otherwise. */
export function targetMet(result: BenchResult): boolean | undefined {
  const match = TARGET_PATTERN.exec(result.target);
  const bound = targetBound(result);
  if (!match || bound === undefined) return undefined;
  if (bound === null) return false;
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

/** A row's floor as the tables print it (`-` for none). */
export function formatFloor(r: Pick<BenchResult, 'floor'>): string {
  return typeof r.floor === 'number' ? r.floor.toFixed(3) : '-';
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
  const header = ['name', 'ours', 'baseline', 'ratio', 'floor', 'target', 'met'];
  const rows = results.map((r) => {
    const met = targetMet(r);
    return [
      displayName(r),
      formatNumber(r.ours, r.unit),
      formatNumber(r.baseline, r.unit),
      r.ratio.toFixed(3),
      formatFloor(r),
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
