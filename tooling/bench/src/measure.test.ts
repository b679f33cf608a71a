import { afterEach, describe, expect, it } from 'vitest';
import { benchGcMode, compareInterleaved, compareWithFloor, measureSides } from './measure.ts';

const scope = globalThis as { gc?: () => void };
const saved = scope.gc;
afterEach(() => {
  if (saved === undefined) delete scope.gc;
  else scope.gc = saved;
});

describe('the compare kit', () => {
  it('collects garbage before every timed side when the runner exposes gc, in the order the sides run', async () => {
    const log: string[] = [];
    scope.gc = ((options?: { type?: string }) => log.push(options?.type === 'minor' ? 'gc' : 'full gc')) as () => void;
    await compareInterleaved(
      () => log.push('ours'),
      () => log.push('base'),
      { samples: 2, warmup: 0 },
    );
    expect(log).toEqual(['gc', 'ours', 'gc', 'base', 'gc', 'base', 'gc', 'ours']);
  });

  it('rotates the three sides of a floor comparison and reports each median', async () => {
    const order: string[] = [];
    delete scope.gc;
    const c = await compareWithFloor(
      () => order.push('o'),
      () => order.push('f'),
      () => order.push('b'),
      { samples: 3, warmup: 0 },
    );
    expect(order.join('')).toBe('ofbfbobof');
    expect(c.ratio).toBeCloseTo(c.ours / c.baseline);
    expect(c.floor).toBeCloseTo(c.floorNs / c.baseline);
  });

  it('times any number of sides in the same rounds, each side its own median', async () => {
    delete scope.gc;
    const order: number[] = [];
    const side = (n: number) => async () => {
      order.push(n);
    };
    const medians = await measureSides([side(0), side(1), side(2), side(3)], { samples: 4, warmup: 1 });
    expect(order).toEqual([0, 1, 2, 3, 0, 1, 3, 2, 1, 2, 0, 3, 2, 3, 1, 0, 3, 0, 2, 1]);
    expect(medians).toHaveLength(4);
    for (const m of medians) expect(Number.isFinite(m) && m >= 0).toBe(true);
  });

  it('collects only the young generation unless ORCA_BENCH_GC asks for full or none', () => {
    expect(benchGcMode({})).toBe('minor');
    expect(benchGcMode({ ORCA_BENCH_GC: 'full' })).toBe('full');
    expect(benchGcMode({ ORCA_BENCH_GC: 'none' })).toBe('none');
    expect(benchGcMode({ ORCA_BENCH_GC: 'sometimes' })).toBe('minor');
  });
});
