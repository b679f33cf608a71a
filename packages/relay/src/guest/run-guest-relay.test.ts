import { createServer } from 'node:net';
import { until } from '@orca/testkit';
import { RemoteError } from '@orca/wire/relay-frames';
import { describe, expect, it } from 'vitest';
import { nested, paneKey } from '../../test/helpers/fixtures.ts';
import { httpRequest } from '../../test/helpers/http.ts';
import { memoryRelay } from '../../test/helpers/memory-relay.ts';

const post = (port: number, token: string, i: number, payload: Record<string, unknown> = {}) =>
  httpRequest(port, {
    path: '/hook/claude',
    headers: { 'x-orca-agent-hook-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ paneKey: paneKey(i), payload }),
  });

describe('runGuestRelay over in-memory pipes', () => {
  it('binds a fallback port when the env port is taken and still serves', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const a = blocker.address();
    const taken = typeof a === 'object' && a !== null ? a.port : 0;
    const m = await memoryRelay({ env: { ORCA_AGENT_HOOK_PORT: String(taken) } });
    blocker.close();
    expect(m.port).not.toBe(taken);
    expect(await m.link.channel.request('guestfs.home')).toMatchObject({ portFallback: true, boundPort: m.port });
    expect((await post(m.port, m.token, 1)).status).toBe(204);
    await until('one notification', () => m.link.notifications.length === 1);
    m.stdin.end();
    expect(await m.relay.exited).toBe(0);
  });

  it('unknown method → -32601 with the same id', async () => {
    const m = await memoryRelay();
    const err = await m.link.channel.request('nope.nothing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).rpcCode).toBe(-32601);
    m.stdin.end();
  });

  it('replays every cached pane oldest first, flagged, all before its response', async () => {
    const m = await memoryRelay();
    for (const i of [1, 2, 3, 1]) await post(m.port, m.token, i, { i });
    await until('four notifications', () => m.link.notifications.length === 4);
    const before = m.link.notifications.length;
    const res = await m.link.channel.request('agent_hook.requestReplay');
    expect(res).toEqual({ replayed: 3 });
    const replays = m.link.notifications.slice(before).map((n) => n.params as { paneKey: string; isReplay?: boolean });
    expect(replays.map((r) => [r.paneKey, r.isReplay])).toEqual([
      [paneKey(2), true],
      [paneKey(3), true],
      [paneKey(1), true],
    ]);
    expect(
      m.link.notifications.slice(0, before).every((n) => (n.params as { isReplay?: unknown }).isReplay === undefined),
    ).toBe(true);
    m.stdin.end();
  });

  it('a payload deeper than any listener pre-scan limit crosses the channel both ways', async () => {
    const m = await memoryRelay();
    // The listener caps depth at 64, so inject the deep event through a string payload at the limit,
    // and check the host → guest direction with a deep request param (guestfs ignores unknown params).
    expect((await post(m.port, m.token, 9, nested(64))).status).toBe(204);
    await until('one notification', () => m.link.notifications.length === 1);
    const deep = nested(500);
    expect(await m.link.channel.request('guestfs.stat', { path: '/nonexistent-outside', deep })).toMatchObject({
      ok: false,
      errno: 'EACCES',
    });
    m.stdin.end();
  });

  it('holds events back while stdout is backpressured (no notify), flushes them in order on drain', async () => {
    const m = await memoryRelay({ highWaterMark: 64 });
    m.stdout.pause();
    // Detach the host reader while paused: nothing is read from stdout.
    const big = { blob: 'x'.repeat(2000) };
    for (let i = 0; i < 10; i++) await post(m.port, m.token, 100 + i, big);
    const s = m.relay.stats();
    expect(s.accepted).toBe(10);
    expect(s.published).toBe(1); // the first write reported backpressure; the rest wait
    m.stdout.resume();
    await until('ten notifications', () => m.link.notifications.length === 10);
    expect(m.link.notifications.map((n) => (n.params as { paneKey: string }).paneKey)).toEqual(
      Array.from({ length: 10 }, (_, i) => paneKey(100 + i)),
    );
    expect(m.relay.stats()).toMatchObject({ accepted: 10, published: 10, superseded: 0 });
    m.stdin.end();
  });
});
