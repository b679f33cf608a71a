import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPaneInput } from './pane-input.ts';

function recorder() {
  const written: string[] = [];
  let t = 1_000;
  return {
    written,
    input: createPaneInput(
      (d) => written.push(d),
      () => t++,
    ),
  };
}

describe('pane input (one writer per pane)', () => {
  it('raw input goes through while nobody holds the pane, and is refused (nothing written) while a delivery does', async () => {
    const { written, input } = recorder();
    expect(input.offer('a')).toBe(true);
    const lease = await input.acquire({ kind: 'dispatch', itemId: 7 });
    expect(lease).not.toBeNull();
    expect(input.holder()).toEqual({ kind: 'dispatch', itemId: 7, since: expect.any(Number) });
    expect(input.offer('b')).toBe(false);
    lease?.write('prompt');
    lease?.release();
    expect(input.holder()).toBeNull();
    expect(input.offer('c')).toBe(true);
    expect(written).toEqual(['a', 'prompt', 'c']);
  });

  it('waiters get the pane one at a time, first come first served; a released lease cannot write', async () => {
    const { written, input } = recorder();
    const first = await input.acquire({ kind: 'dispatch', itemId: 1 });
    const order: number[] = [];
    const second = input.acquire({ kind: 'dispatch', itemId: 2 }).then((l) => {
      order.push(2);
      return l;
    });
    const third = input.acquire({ kind: 'dispatch', itemId: 3 }).then((l) => {
      order.push(3);
      return l;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first?.release();
    first?.release(); // idempotent: does not hand the pane on twice
    const l2 = await second;
    expect(input.holder()?.itemId).toBe(2);
    expect(order).toEqual([2]);
    expect(() => first?.write('late')).toThrow(/after release/);
    l2?.release();
    const l3 = await third;
    expect(order).toEqual([2, 3]);
    l3?.release();
    expect(written).toEqual([]);
  });

  it('an aborted waiter leaves the line and takes nothing', async () => {
    const { input } = recorder();
    const held = await input.acquire({ kind: 'dispatch', itemId: 1 });
    const abort = new AbortController();
    const gone = input.acquire({ kind: 'dispatch', itemId: 2 }, abort.signal);
    const next = input.acquire({ kind: 'dispatch', itemId: 3 });
    abort.abort();
    expect(await gone).toBeNull();
    held?.release();
    expect((await next) && input.holder()?.itemId).toBe(3);
    const pre = new AbortController();
    pre.abort();
    expect(await input.acquire({ kind: 'dispatch', itemId: 4 }, pre.signal)).toBeNull();
  });

  it('no interleaving: whatever mix of raw input and deliveries, a delivery’s writes are contiguous (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant('raw' as const), fc.integer({ min: 1, max: 3 })), { maxLength: 30 }),
        async (ops) => {
          const { written, input } = recorder();
          const deliveries: Promise<void>[] = [];
          ops.forEach((op, i) => {
            if (op === 'raw') input.offer(`r${i}`);
            else
              deliveries.push(
                input.acquire({ kind: 'dispatch', itemId: i }).then(async (lease) => {
                  for (let k = 0; k < op; k++) {
                    lease?.write(`d${i}.${k}`);
                    await Promise.resolve();
                  }
                  lease?.release();
                }),
              );
          });
          await Promise.all(deliveries);
          // Each delivery's writes sit next to each other in the PTY's input, nothing between them.
          const owners = written.map((w) => (w.startsWith('d') ? w.slice(0, w.indexOf('.')) : 'raw'));
          for (const owner of new Set(owners.filter((x) => x !== 'raw'))) {
            const at = owners.flatMap((x, i) => (x === owner ? [i] : []));
            expect(at).toEqual(at.map((_, k) => (at[0] ?? 0) + k));
          }
        },
      ),
    );
  });
});
