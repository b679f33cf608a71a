import { describe, expect, it } from 'vitest';
import { until } from './until.ts';

describe('until', () => {
  it('returns the first answer that is not undefined or false, after polling', async () => {
    let calls = 0;
    const value = await until(
      'the third call',
      () => {
        calls += 1;
        if (calls === 1) return undefined;
        if (calls === 2) return false;
        return { calls };
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 3 });
  });

  it('awaits async probes and returns true for a boolean check', async () => {
    await expect(until('an async true', async () => true, { intervalMs: 1 })).resolves.toBe(true);
  });

  it('fails naming what it waited for, with the last probe error as cause', async () => {
    const failure = until(
      'the thing',
      () => {
        throw new Error('not there');
      },
      { timeoutMs: 20, intervalMs: 5 },
    );
    await expect(failure).rejects.toThrow('timed out waiting for the thing (20 ms)');
    await expect(failure.catch((e: Error) => (e.cause as Error).message)).resolves.toBe('not there');
  });
});
