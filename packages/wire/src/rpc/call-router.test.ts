import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRpcCallRouter } from './call-router.ts';

const meta = { runtimeId: 'r' };

describe('createRpcCallRouter', () => {
  it('resolves a call by id, hands streaming results to onEvent first, and rejects a failure through toError', async () => {
    const router = createRpcCallRouter((f) => new Error(`${f.error.code}: ${f.error.message}`));
    const events: unknown[] = [];
    const streamed = router.expect<number>('a', (e) => events.push(e));
    const failed = router.expect('b');
    router.receive(JSON.stringify({ id: 'a', ok: true, streaming: true, result: 1, _meta: meta }));
    router.receive(JSON.stringify({ id: 'b', ok: false, error: { code: 'timeout', message: 'late' }, _meta: meta }));
    router.receive(JSON.stringify({ id: 'a', ok: true, result: 2, _meta: meta }));
    await expect(streamed).resolves.toBe(2);
    await expect(failed).rejects.toThrow('timeout: late');
    expect(events).toEqual([1]);
  });

  it('failAll rejects every waiting call once; a later response for it is ignored', async () => {
    const router = createRpcCallRouter(() => new Error('no'));
    const a = router.expect('a');
    router.failAll(new Error('closed'));
    router.receive(JSON.stringify({ id: 'a', ok: true, result: 1, _meta: meta }));
    await expect(a).rejects.toThrow('closed');
  });

  it('never throws on any text and settles nothing from junk', async () => {
    const router = createRpcCallRouter(() => new Error('no'));
    let settled = false;
    router.expect('x').then(
      () => (settled = true),
      () => (settled = true),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        expect(() => router.receive(text)).not.toThrow();
      }),
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(false);
  });
});
