import { performance } from 'node:perf_hooks';
import { sideOrder } from './side-order.ts';

/** Median wall time of `fn` in nanoseconds per call, after `warmup` untimed calls. */
export async function measureMedian(
  fn: () => unknown | Promise<unknown>,
  { samples = 7, iterations = 1, warmup = 1 }: { samples?: number; iterations?: number; warmup?: number } = {},
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    times.push(((performance.now() - start) * 1e6) / iterations);
  }
  return median(times);
}

export interface CompareOptions {
  /** Timed rounds; each round runs ours then baseline (order alternates) — default 7. */
  samples?: number;
  /** Calls per round per side — default 1. */
  iterations?: number;
  /** Untimed rounds first — default 1. */
  warmup?: number;
}

export interface Comparison {
  /** Median ns per call of ours. */
  ours: number;
  /** Median ns per call of the baseline. */
  baseline: number;
  ratio: number;
}

/**
 * Interleaved comparison: ours and the baseline alternate within every round so machine load
 * hits both alike; each side's median ns per call and `ours / baseline`.
 */
export async function compareInterleaved(
  ours: () => unknown | Promise<unknown>,
  baseline: () => unknown | Promise<unknown>,
  { samples = 7, iterations = 1, warmup = 1 }: CompareOptions = {},
): Promise<Comparison> {
  const timeOne = (fn: () => unknown | Promise<unknown>) => timeCalls(fn, iterations);
  for (let i = 0; i < warmup; i++) {
    await timeOne(ours);
    await timeOne(baseline);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let s = 0; s < samples; s++) {
    if (s % 2 === 0) {
      a.push(await timeOne(ours));
      b.push(await timeOne(baseline));
    } else {
      b.push(await timeOne(baseline));
      a.push(await timeOne(ours));
    }
  }
  const o = median(a);
  const base = median(b);
  return { ours: o, baseline: base, ratio: o / base };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A {@link Comparison} with the floor measured in the same rounds. */
export interface FloorComparison extends Comparison {
  /** Median ns per call of the floor: the least work the row's job needs, done plainly. */
  floorNs: number;
  /** `floorNs / baseline` (time rows); a bench of a throughput row inverts it like its ratio. */
  floor: number;
}

/**
 * {@link compareInterleaved} with a third side, the floor (the least work the job needs, written
 * plainly, for example: find the frames and strip them without validating), timed in the same
 * rounds in a balanced order, so a target can be set against it (`<= floor × 1.2`).
 *
 * @example
 * const c = await compareWithFloor(() => parse(chunks), () => stripFrames(chunks), () => scan(chunks));
 * reportBench({ name: 'parser vs scan', ...c, target: '<= floor × 1.2' });
 */
export async function compareWithFloor(
  ours: () => unknown | Promise<unknown>,
  floor: () => unknown | Promise<unknown>,
  baseline: () => unknown | Promise<unknown>,
  options: CompareOptions = {},
): Promise<FloorComparison> {
  const [o, f, b] = (await measureSides([ours, floor, baseline], options)) as [number, number, number];
  return { ours: o, baseline: b, ratio: o / b, floorNs: f, floor: f / b };
}

/**
 * Median ns per call of each side, all timed in the same rounds in a balanced order (see
 * {@link sideOrder}: each side leads, and follows each other side, equally often), so a slow spell
 * of the machine, or the garbage one side leaves, lands on every side alike.
 *
 * @example
 * const [script, pipe, empty] = await measureSides([runScript, runPipe, runTrue], { samples: 11 });
 */
export async function measureSides(
  sides: readonly (() => unknown | Promise<unknown>)[],
  { samples = 7, iterations = 1, warmup = 1 }: CompareOptions = {},
): Promise<number[]> {
  const times: number[][] = sides.map(() => []);
  const timeOne = (fn: () => unknown | Promise<unknown>) => timeCalls(fn, iterations);
  for (let i = 0; i < warmup; i++) for (const fn of sides) await timeOne(fn);
  for (let s = 0; s < samples; s++) {
    for (const side of sideOrder(s, sides.length)) times[side]?.push(await timeOne(sides[side] as () => unknown));
  }
  return times.map(median);
}

/** How the kit collects garbage before each timed side: `ORCA_BENCH_GC` = `minor` (default), `full`, `none`. */
export function benchGcMode(env: NodeJS.ProcessEnv = process.env): 'minor' | 'full' | 'none' {
  const mode = env.ORCA_BENCH_GC;
  return mode === 'full' || mode === 'none' ? mode : 'minor';
}

/**
 * Wall time of `iterations` calls of `fn`, in nanoseconds per call. Why: each timed side starts on
 * an empty young generation, so one side never pays for scavenging the garbage the side before it
 * left. Only a minor GC: a full one also shrinks the heap and hands its pages back, and then the
 * side's first allocations fault them in again — on this kind of VM that made allocation-bound rows
 * 3–7× slower and their ratios erratic (the relay decoder's 4 MiB ÷ 1 MiB read 1.8–2.7, not 4).
 */
async function timeCalls(fn: () => unknown | Promise<unknown>, iterations: number): Promise<number> {
  // The collector `--expose-gc` gives (`pnpm bench` runs every bench with it), if any.
  const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
  const mode = benchGcMode();
  if (mode === 'minor') gc?.({ type: 'minor' });
  else if (mode === 'full') gc?.();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return ((performance.now() - start) * 1e6) / iterations;
}
