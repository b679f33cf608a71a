import { createServer } from 'node:net';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/clock.ts';
import { PANE } from '../../test/helpers/fixtures.ts';
import { httpRequest, rawExchange } from '../../test/helpers/http.ts';
import { MAX_HOOK_BODY_BYTES, SLOW_CLIENT_TIMEOUT_MS } from '../constants.ts';
import { RelayError } from '../errors.ts';
import { createHookListener, type HookListener } from './hook-listener.ts';
import type { HookEvent } from './types.ts';

const TOKEN = 'tok-123';
const open: HookListener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.stop()));
});

async function start(opts: Partial<Parameters<typeof createHookListener>[0]> = {}) {
  const events: HookEvent[] = [];
  const l = createHookListener({ token: TOKEN, port: 0, onEvent: (e) => events.push(e), ...opts });
  open.push(l);
  const bound = await l.start();
  return { l, events, ...bound };
}

const body = JSON.stringify({ paneKey: PANE, payload: { hook_event_name: 'Stop' } });
const json = { 'content-type': 'application/json', 'x-orca-agent-hook-token': TOKEN };

describe('pipeline rows', () => {
  const routes: [string, string, boolean][] = [
    ['known', '/hook/claude', true],
    ['query ignored', '/hook/claude?x=1', true],
    ['unknown', '/hook/nope', false],
    ['case variant', '/hook/Claude', false],
    ['trailing slash', '/hook/claude/', false],
    ['bare', '/hook/', false],
  ];
  const tokens: [string, string | undefined, boolean][] = [
    ['none', undefined, false],
    ['wrong', 'tok-124', false],
    ['padded', `${TOKEN}x`, false],
    ['right', TOKEN, true],
  ];
  for (const method of ['POST', 'GET', 'PUT']) {
    for (const [rname, path, routeOk] of routes) {
      for (const [tname, token, tokenOk] of tokens) {
        it(`${method} ${rname} token=${tname}`, async () => {
          const { port, l, events } = await start();
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (token !== undefined) headers['x-orca-agent-hook-token'] = token;
          const r = await httpRequest(port, { method, path, headers, body: method === 'GET' ? undefined : body });
          const routed = method === 'POST' && routeOk;
          const expected = !routed ? 404 : !tokenOk ? 403 : 204;
          expect(r.status).toBe(expected);
          const s = l.stats();
          expect(s.dropped.route).toBe(expected === 404 ? 1 : 0);
          expect(s.dropped.auth).toBe(expected === 403 ? 1 : 0);
          expect(events.length).toBe(expected === 204 ? 1 : 0);
          if (expected !== 204) expect(r.closed).toBe(true);
        });
      }
    }
  }

  it('delivers the event before the 204 arrives', async () => {
    let sawEventFirst = false;
    const order: string[] = [];
    const { port } = await start({ onEvent: () => order.push('event') });
    const r = await httpRequest(port, { path: '/hook/codex', headers: json, body });
    order.push(`reply ${r.status}`);
    sawEventFirst = order[0] === 'event';
    expect(order).toEqual(['event', 'reply 204']);
    expect(sawEventFirst).toBe(true);
  });

  it('holds the 204 until a promise returned by onEvent settles (commit before acknowledge)', async () => {
    const order: string[] = [];
    let commit: () => void = () => undefined;
    const { port } = await start({
      onEvent: () => {
        order.push('event');
        return new Promise<void>((resolve) => {
          commit = () => {
            order.push('committed');
            resolve();
          };
        });
      },
    });
    const reply = httpRequest(port, { path: '/hook/codex', headers: json, body }).then((r) => {
      order.push(`reply ${r.status}`);
    });
    await until('the event', () => order.includes('event'));
    // Why: a reply sent before the commit would already be here after a few turns of the loop.
    for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['event']);
    commit();
    await reply;
    expect(order).toEqual(['event', 'committed', 'reply 204']);
  });

  it('answers 204 and logs when the promise of onEvent rejects (fail open)', async () => {
    const errors: string[] = [];
    const log = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (m: string) => errors.push(m),
    };
    const { port } = await start({ onEvent: () => Promise.reject(new Error('disk full')), log });
    const r = await httpRequest(port, { path: '/hook/codex', headers: json, body });
    expect(r.status).toBe(204);
    expect(errors).toEqual(['[hook-listener] onEvent failed: disk full']);
  });

  it('emits the validated raw envelope', async () => {
    const { port, events } = await start();
    await httpRequest(port, {
      path: '/hook/grok',
      headers: json,
      body: JSON.stringify({ paneKey: PANE, tabId: 'tab-1', grokHome: '/h', payload: { hookType: 'x' } }),
    });
    expect(events).toEqual([
      {
        source: 'grok',
        paneKey: PANE,
        tabId: 'tab-1',
        grokHome: '/h',
        hookEventName: 'x',
        payload: { hookType: 'x' },
        receivedAt: expect.any(Number),
      },
    ]);
  });

  it('fails open on bad bodies and counts each reason', async () => {
    const { port, l, events } = await start();
    const cases: [string, Record<string, string>][] = [
      ['{', json],
      [JSON.stringify({ paneKey: 'nope', payload: {} }), json],
      [JSON.stringify({ paneKey: PANE, tabId: 'other', payload: {} }), json],
      [JSON.stringify({ paneKey: PANE, env: 3, payload: {} }), json],
      [JSON.stringify({ paneKey: PANE, payload: [1] }), json],
      ['{}', { ...json, 'x-orca-agent-hook-meta': 'abc' }],
    ];
    for (const [b, h] of cases)
      expect((await httpRequest(port, { path: '/hook/claude', headers: h, body: b })).status).toBe(204);
    expect(events).toEqual([]);
    expect(l.stats().dropped).toMatchObject({
      json: 1,
      'pane-key': 1,
      'tab-mismatch': 1,
      field: 1,
      payload: 1,
      meta: 1,
    });
  });

  it('catches onEvent throws and keeps serving', async () => {
    const errors: string[] = [];
    const { port, l } = await start({
      onEvent: () => {
        throw new Error('boom');
      },
      log: { debug() {}, info() {}, warn() {}, error: (m) => errors.push(m) },
    });
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
    expect(errors.length).toBe(2);
    expect(l.stats().accepted).toBe(2);
  });
});

describe('limits', () => {
  it('413 + close on a declared length over the cap, next request fine', async () => {
    const { port, l, events } = await start();
    const res = await rawExchange(
      port,
      `POST /hook/claude HTTP/1.1\r\nHost: x\r\nX-Orca-Agent-Hook-Token: ${TOKEN}\r\nContent-Length: ${MAX_HOOK_BODY_BYTES + 1}\r\n\r\n`,
      true,
    );
    expect(res.startsWith('HTTP/1.1 413')).toBe(true);
    expect(l.stats().dropped['too-large']).toBe(1);
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
    expect(events.length).toBe(1);
  });

  it('accepts exactly the cap and refuses cap+1 when chunked', async () => {
    const { port, l, events } = await start();
    const pad = (n: number) => {
      const base = JSON.stringify({ paneKey: PANE, payload: { p: '' } });
      return JSON.stringify({ paneKey: PANE, payload: { p: 'x'.repeat(n - base.length) } });
    };
    const atCap = pad(MAX_HOOK_BODY_BYTES);
    expect(Buffer.byteLength(atCap)).toBe(MAX_HOOK_BODY_BYTES);
    const chunked = { ...json, 'transfer-encoding': 'chunked' };
    expect((await httpRequest(port, { path: '/hook/claude', headers: chunked, body: atCap })).status).toBe(204);
    const over = pad(MAX_HOOK_BODY_BYTES + 1);
    const r = await httpRequest(port, { path: '/hook/claude', headers: chunked, body: over }).catch(() => ({
      status: 413,
      closed: true,
    }));
    expect(r.status).toBe(413);
    expect(l.stats().dropped['too-large']).toBe(1);
    expect(events.length).toBe(1);
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  });

  it('408 and close when the body stalls past the slow-client timeout (manual clock)', async () => {
    const clock = manualClock();
    const { port, l } = await start({ clock });
    const pending = rawExchange(
      port,
      `POST /hook/claude HTTP/1.1\r\nHost: x\r\nX-Orca-Agent-Hook-Token: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"pa`,
      true,
    );
    while (clock.pending() === 0) await new Promise((r) => setTimeout(r, 5));
    clock.advance(SLOW_CLIENT_TIMEOUT_MS - 1);
    expect(l.stats().dropped.timeout).toBe(0);
    clock.advance(1);
    expect((await pending).startsWith('HTTP/1.1 408')).toBe(true);
    expect(l.stats().dropped.timeout).toBe(1);
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  });

  it('survives garbage requests', async () => {
    const { port } = await start();
    await rawExchange(port, 'NOT HTTP\r\n\r\n');
    await rawExchange(port, Buffer.from([0, 1, 2, 255, 10, 13, 10, 13]));
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  });
});

describe('bind', () => {
  it('binds 127.0.0.1 only', async () => {
    const { port } = await start();
    const { networkInterfaces } = await import('node:os');
    const other = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (other === undefined) {
      console.log('skip part: no non-loopback IPv4 interface on this machine');
    } else {
      const { connect } = await import('node:net');
      const err = await new Promise<string>((resolve) => {
        const s = connect(port, other.address);
        s.on('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(err).toBe('ECONNREFUSED');
    }
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  });

  it('falls back to :0 when the preferred port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const addr = blocker.address();
    const taken = typeof addr === 'object' && addr ? addr.port : 0;
    try {
      const { port, fallback } = await start({ port: taken });
      expect(fallback).toBe(true);
      expect(port).not.toBe(taken);
      expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
    } finally {
      blocker.close();
    }
  });

  it('uses a free preferred port without fallback', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const addr = probe.address();
    const free = typeof addr === 'object' && addr ? addr.port : 0;
    await new Promise<void>((r) => probe.close(() => r()));
    const { port, fallback } = await start({ port: free });
    expect({ port, fallback }).toEqual({ port: free, fallback: false });
  });

  it('rejects with BIND_FAILED on a privileged-port-like failure without fallback', async () => {
    const l = createHookListener({ token: TOKEN, port: 70000, onEvent() {} });
    await expect(l.start()).rejects.toMatchObject({ code: 'ORCA_RELAY_BIND_FAILED' });
    expect(() => createHookListener({ token: '', onEvent() {} })).toThrow(RelayError);
  });
});
