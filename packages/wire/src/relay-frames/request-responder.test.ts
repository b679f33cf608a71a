import { describe, expect, it } from 'vitest';
import { WireError } from '../errors.ts';
import { createRequestResponder } from './request-responder.ts';

function responder(send?: (message: Record<string, unknown>) => void) {
  const sent: Array<Record<string, unknown>> = [];
  const r = createRequestResponder(send ?? ((m) => sent.push(m)));
  return { r, sent };
}
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createRequestResponder', () => {
  it('answers each request once: result (undefined → null), thrown error, unknown method', async () => {
    const { r, sent } = responder();
    r.onRequest('ping', (params) => ({ pong: params }));
    r.onRequest('void', () => undefined);
    r.onRequest('fail', () => {
      throw Object.assign(new Error('ENOENT: gone'), { code: 'ENOENT' });
    });
    r.handle(1, 'ping', 7);
    r.handle('b', 'void', undefined);
    r.handle(3, 'fail', undefined);
    r.handle(4, 'nope', undefined);
    expect(sent).toEqual([
      { id: 4, error: { code: -32601, message: 'Method not found: nope', data: { nodeCode: null } } },
    ]);
    await settle();
    expect(sent.slice(1)).toEqual([
      { id: 1, result: { pong: 7 } },
      { id: 'b', result: null },
      { id: 3, error: { code: -33003, message: 'ENOENT: gone', data: { nodeCode: 'ENOENT' } } },
    ]);
  });

  it('rpc.cancel aborts that handler; abortAll aborts every running one with the reason', async () => {
    const { r } = responder();
    const signals = new Map<number, AbortSignal>();
    r.onRequest('hang', (params, { signal }) => {
      signals.set(params as number, signal);
      return new Promise(() => {});
    });
    for (const id of [1, 2, 3]) r.handle(id, 'hang', id);
    await settle();
    r.cancel(2);
    r.cancel({ not: 'an id' });
    expect([1, 2, 3].map((id) => signals.get(id)?.aborted)).toEqual([false, true, false]);
    r.abortAll('link lost');
    expect([1, 3].map((id) => signals.get(id)?.reason)).toEqual(['link lost', 'link lost']);
  });

  it('a result that cannot be framed is answered with Internal and the framing error', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const { r } = responder((m) => {
      if ('result' in m) throw new WireError('ORCA_WIRE_FRAME_TOO_LARGE', 'payload over the cap');
      sent.push(m);
    });
    r.onRequest('big', () => 'x');
    r.handle(9, 'big', undefined);
    await settle();
    expect(sent).toEqual([
      { id: 9, error: { code: -32603, message: 'payload over the cap', data: { nodeCode: null } } },
    ]);
  });
});
