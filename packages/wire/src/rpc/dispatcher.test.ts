import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../clock.ts';
import { DEFAULT_PASS_THROUGH_CODES, RPC_ERROR_CODES } from './codes.ts';
import { createDispatcher, defineMethod } from './dispatcher.ts';
import { KEEPALIVE, parseResponse, type RpcResponse } from './envelope.ts';
import { InvalidArgumentError, RpcError } from './errors.ts';

const seen: unknown[] = [];
const methods = [
  defineMethod({
    name: 'echo',
    params: z.object({ a: z.number(), b: z.string().optional() }),
    handler: (p, { meta }) => {
      seen.push({ p, meta });
      return p;
    },
  }),
  defineMethod({ name: 'strict', strict: true, params: z.object({ a: z.number() }), handler: (p) => p }),
  defineMethod({ name: 'none', params: null, handler: (p) => ({ got: p === undefined ? 'undefined' : p }) }),
  defineMethod({ name: 'void', params: null, handler: () => undefined }),
  defineMethod({
    name: 'throws',
    params: z.object({ kind: z.string() }),
    handler: ({ kind }) => {
      if (kind === 'zod') z.number().parse('x');
      if (kind === 'invalid') throw new InvalidArgumentError('bad thing');
      if (kind === 'code') throw Object.assign(new Error('busy'), { code: 'terminal_stream_limit_exceeded' });
      if (kind === 'app-code') throw Object.assign(new Error('stale'), { code: 'terminal_handle_stale' });
      if (kind === 'message') throw new Error('agent_prompt_blocked');
      if (kind === 'rpc') throw new RpcError('forbidden', 'no', { data: { why: 1 } });
      if (kind === 'other-code') throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      throw new Error('kaput');
    },
  }),
  defineMethod({
    name: 'badschema',
    params: z.object({ a: z.string() }).transform(() => {
      throw new Error('schema exploded');
    }),
    handler: () => 1,
  }),
  defineMethod({
    name: 'watch',
    streaming: true,
    params: null,
    handler: async (_p, { emit }) => {
      emit({ n: 1 });
      emit({ n: 2 });
      return 'done';
    },
  }),
];

const d = createDispatcher({ runtimeId: 'rt-1', methods });
const call = (body: unknown) => d.dispatch(typeof body === 'string' ? body : JSON.stringify(body));

describe('createDispatcher', () => {
  it('success envelope, params stripped of unknown keys, extra top-level keys reach meta only', async () => {
    seen.length = 0;
    const r = await call({ id: '1', method: 'echo', params: { a: 1, zzz: 2 }, auth: 'tok', orchestration: { x: 1 } });
    expect(r).toEqual({ id: '1', ok: true, result: { a: 1 }, _meta: { runtimeId: 'rt-1' } });
    expect(seen).toEqual([{ p: { a: 1 }, meta: { auth: 'tok', orchestration: { x: 1 } } }]);
  });

  it('strict methods refuse unknown keys', async () => {
    expect(await call({ id: '2', method: 'strict', params: { a: 1, zzz: 2 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
  });

  it('params: null → undefined; undefined result → null', async () => {
    expect(await call({ id: '3', method: 'none', params: { x: 1 } })).toMatchObject({ result: { got: 'undefined' } });
    expect(await call({ id: '3', method: 'void' })).toMatchObject({ result: null });
  });

  it('message is the first issue; missing params validate as {}', async () => {
    const r = await call({ id: '4', method: 'echo', params: { a: 'x', b: 5 } });
    expect(r).toEqual({
      id: '4',
      ok: false,
      error: { code: 'invalid_argument', message: 'a: Invalid input: expected number, received string' },
      _meta: { runtimeId: 'rt-1' },
    });
    expect(Object.hasOwn((r as { error: object }).error, 'data')).toBe(false);
    expect(await call({ id: '5', method: 'echo' })).toMatchObject({ error: { code: 'invalid_argument' } });
  });

  it('order: size → JSON → envelope → method → mode → params', async () => {
    const small = createDispatcher({ runtimeId: null, methods, maxRequestBytes: 10 });
    expect(await small.dispatch('{not json at all}')).toMatchObject({
      id: 'unknown',
      error: { code: 'request_too_large' },
    });
    expect(await call('{nope')).toMatchObject({ id: 'unknown', error: { code: 'bad_request' } });
    expect(await call({ method: 'echo' })).toMatchObject({ id: 'unknown', error: { code: 'bad_request' } });
    expect(await call({ id: '', method: 'echo' })).toMatchObject({ id: 'unknown', error: { code: 'bad_request' } });
    expect(await call({ id: '6', method: '' })).toMatchObject({ id: '6', error: { code: 'bad_request' } });
    expect(await call({ id: '7', method: 'nope', params: 'bad' })).toEqual({
      id: '7',
      ok: false,
      error: { code: 'method_not_found', message: 'Unknown method: nope' },
      _meta: { runtimeId: 'rt-1' },
    });
    expect(await call({ id: '8', method: 'watch', params: 'bad' })).toMatchObject({
      error: { code: 'method_not_supported' },
    });
    expect(await d.dispatch(JSON.stringify({ id: '9', method: 'echo' }), { mode: 'streaming' })).toMatchObject({
      error: { code: 'method_not_supported' },
    });
  });

  it('maps handler errors', async () => {
    const code = async (kind: string) =>
      ((await call({ id: 'e', method: 'throws', params: { kind } })) as { error: unknown }).error;
    expect(await code('zod')).toMatchObject({ code: 'invalid_argument' });
    expect(await code('invalid')).toEqual({ code: 'invalid_argument', message: 'bad thing' });
    expect(await code('code')).toEqual({ code: 'terminal_stream_limit_exceeded', message: 'busy' });
    expect(await code('app-code')).toEqual({ code: 'runtime_error', message: 'stale' });
    expect(await code('message')).toEqual({ code: 'runtime_error', message: 'agent_prompt_blocked' });
    expect(await code('rpc')).toEqual({ code: 'forbidden', message: 'no', data: { why: 1 } });
    expect(await code('other-code')).toEqual({ code: 'runtime_error', message: 'nope' });
    expect(await code('plain')).toEqual({ code: 'runtime_error', message: 'kaput' });
    expect(await call({ id: 'b', method: 'badschema', params: { a: 'x' } })).toMatchObject({
      error: { code: 'invalid_argument' },
    });
  });

  it("an application's codes pass through only when it lists them; a message is never read as a code", async () => {
    expect(DEFAULT_PASS_THROUGH_CODES).toEqual(['terminal_stream_limit_exceeded', 'binary_terminal_stream_required']);
    const app = createDispatcher({
      runtimeId: 'rt-1',
      methods,
      passThroughCodes: [...DEFAULT_PASS_THROUGH_CODES, 'terminal_handle_stale', 'agent_prompt_blocked'],
    });
    const code = async (kind: string) =>
      ((await app.dispatch(JSON.stringify({ id: 'e', method: 'throws', params: { kind } }))) as { error: unknown })
        .error;
    expect(await code('app-code')).toEqual({ code: 'terminal_handle_stale', message: 'stale' });
    expect(await code('code')).toEqual({ code: 'terminal_stream_limit_exceeded', message: 'busy' });
    expect(await code('message')).toEqual({ code: 'runtime_error', message: 'agent_prompt_blocked' });
    expect(await code('other-code')).toEqual({ code: 'runtime_error', message: 'nope' });
  });

  it('streams events, then a final envelope; keepalives every 10 s on long-polls; runtime_busy over 16', async () => {
    const events: RpcResponse[] = [];
    const r = await d.dispatch(JSON.stringify({ id: 's', method: 'watch' }), {
      mode: 'streaming',
      onEvent: (e) => events.push(e),
    });
    expect(events).toEqual([
      { id: 's', ok: true, result: { n: 1 }, streaming: true, _meta: { runtimeId: 'rt-1' } },
      { id: 's', ok: true, result: { n: 2 }, streaming: true, _meta: { runtimeId: 'rt-1' } },
    ]);
    expect(r).toEqual({ id: 's', ok: true, result: 'done', _meta: { runtimeId: 'rt-1' } });

    const clock = createManualClock();
    const releases: Array<() => void> = [];
    const hang = defineMethod({
      name: 'poll',
      streaming: true,
      params: null,
      handler: () => new Promise<void>((res) => releases.push(res)),
    });
    const busy = createDispatcher({ runtimeId: 'r', methods: [hang], clock });
    const ka: RpcResponse[] = [];
    const polls = Array.from({ length: 16 }, (_, i) =>
      busy.dispatch(JSON.stringify({ id: `p${i}`, method: 'poll' }), { mode: 'streaming', onEvent: (e) => ka.push(e) }),
    );
    await new Promise((res) => setTimeout(res, 0));
    expect(await busy.dispatch(JSON.stringify({ id: 'x', method: 'poll' }), { mode: 'streaming' })).toMatchObject({
      error: { code: 'runtime_busy' },
    });
    clock.advance(10_000);
    expect(ka.filter((e) => e === KEEPALIVE)).toHaveLength(16);
    for (const release of releases) release();
    await Promise.all(polls);
  });

  it('aborts the handler signal when the transport signal aborts', async () => {
    const seenSignals: boolean[] = [];
    const waiting = createDispatcher({
      runtimeId: 'r',
      methods: [
        defineMethod({
          name: 'wait',
          params: null,
          handler: (_p, { signal }) =>
            new Promise((res) => {
              seenSignals.push(signal.aborted);
              signal.addEventListener('abort', () => res('aborted'));
            }),
        }),
      ],
    });
    const controller = new AbortController();
    const pending = waiting.dispatch(JSON.stringify({ id: 'w', method: 'wait' }), { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    expect(await pending).toMatchObject({ ok: true, result: 'aborted' });
    const already = new AbortController();
    already.abort();
    void waiting.dispatch(JSON.stringify({ id: 'w2', method: 'wait' }), { signal: already.signal });
    await new Promise((r) => setTimeout(r, 0));
    expect(seenSignals).toEqual([false, true]);
  });

  it('never rejects and always returns a parseable envelope for arbitrary input (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.uint8Array({ maxLength: 64 }).map((b) => b),
        ),
        async (raw) => {
          const r = await d.dispatch(raw);
          expect(parseResponse(JSON.parse(JSON.stringify(r))).ok).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pins the error-code table (append only)', () => {
    expect(Object.keys(RPC_ERROR_CODES)).toMatchInlineSnapshot(`
      [
        "bad_request",
        "request_too_large",
        "unauthorized",
        "forbidden",
        "runtime_busy",
        "method_not_found",
        "method_not_supported",
        "invalid_argument",
        "runtime_error",
        "internal_error",
      ]
    `);
  });
});

describe('parseResponse', () => {
  it('parses success, failure (optional _meta, nullable runtimeId), keepalive; strips unknown keys', () => {
    expect(parseResponse({ id: '1', ok: true, result: 1, _meta: { runtimeId: null }, extra: 1 })).toEqual({
      ok: true,
      value: { id: '1', ok: true, result: 1, _meta: { runtimeId: null } },
    });
    expect(parseResponse({ id: '1', ok: false, error: { code: 'x', message: 'm', more: 1 } })).toEqual({
      ok: true,
      value: { id: '1', ok: false, error: { code: 'x', message: 'm' } },
    });
    expect(parseResponse({ _keepalive: true })).toEqual({ ok: true, value: KEEPALIVE });
    expect(parseResponse({ id: 1 }).ok).toBe(false);
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        expect(typeof parseResponse(v).ok).toBe('boolean');
      }),
    );
  });
});
