import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PANE } from '../../test/helpers/fixtures.ts';
import { httpRequest, rawExchange } from '../../test/helpers/http.ts';
import { MAX_HOOK_CONNECTIONS } from '../constants.ts';
import { createHookListener, type HookListener } from './hook-listener.ts';
import type { HookEvent } from './types.ts';

const TOKEN = 'tok-123';
/** Generous bound on how long the listener may hold a stalled socket (the rule is 5 s). */
const HOLD_BOUND_MS = 10_000;
const open: HookListener[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(open.splice(0).map((l) => l.stop()));
});

async function start() {
  const events: HookEvent[] = [];
  const l = createHookListener({ token: TOKEN, port: 0, onEvent: (e) => events.push(e) });
  open.push(l);
  const { port } = await l.start();
  return { l, events, port };
}

const body = JSON.stringify({ paneKey: PANE, payload: { hook_event_name: 'Stop' } });
const json = { 'content-type': 'application/json', 'x-orca-agent-hook-token': TOKEN };

function rawPost(token: string, text: string, contentType = 'application/json'): string {
  return (
    `POST /hook/claude HTTP/1.1\r\nHost: x\r\nX-Orca-Agent-Hook-Token: ${token}\r\n` +
    `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`
  );
}

/** Connects, writes `bytes` (maybe none), and resolves with how long the server kept the socket and what it sent. */
function holdTime(port: number, bytes: string): Promise<{ ms: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    sockets.push(s);
    const chunks: Buffer[] = [];
    let t0 = 0;
    s.on('connect', () => {
      t0 = performance.now();
      if (bytes !== '') s.write(bytes);
    });
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => undefined);
    s.on('close', () => resolve({ ms: performance.now() - t0, reply: Buffer.concat(chunks).toString('latin1') }));
    setTimeout(() => reject(new Error('socket still open after 40 s')), 40_000).unref();
  });
}

describe('slow and idle sockets are closed near the 5 s slow-client rule', () => {
  it('an idle socket that never sends a byte, a header-stalled one and an idle keep-alive one', async () => {
    const { port, l } = await start();
    const [idle, stalled, keepAlive] = await Promise.all([
      holdTime(port, ''),
      holdTime(port, 'POST /hook/claude HTTP/1.1\r\nHost: x\r\nX-Orca-Agent-'),
      holdTime(port, rawPost(TOKEN, body)),
    ]);
    console.log(
      `hold time: idle ${(idle.ms / 1000).toFixed(1)} s, header-stalled ${(stalled.ms / 1000).toFixed(1)} s, ` +
        `keep-alive idle after a 204 ${(keepAlive.ms / 1000).toFixed(1)} s (bound ${HOLD_BOUND_MS / 1000} s)`,
    );
    expect(idle.ms).toBeLessThan(HOLD_BOUND_MS);
    expect(stalled.ms).toBeLessThan(HOLD_BOUND_MS);
    expect(keepAlive.ms).toBeLessThan(HOLD_BOUND_MS);
    expect(keepAlive.reply.startsWith('HTTP/1.1 204')).toBe(true);
    expect(l.stats().accepted).toBe(1);
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  }, 60_000);

  it(`refuses connections past the cap of ${MAX_HOOK_CONNECTIONS}, counts them, and serves again once they close`, async () => {
    const { port, l } = await start();
    const held: Socket[] = [];
    for (let i = 0; i < MAX_HOOK_CONNECTIONS; i += 1) {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      sockets.push(s);
      held.push(s);
      await new Promise<void>((r) => s.once('connect', () => r()));
    }
    // Why: 'connect' fires client-side before the server accepted; wait until all are counted server-side.
    await new Promise((r) => setTimeout(r, 200));
    const extra = await holdTime(port, rawPost(TOKEN, body));
    console.log(
      `connection ${MAX_HOOK_CONNECTIONS + 1}: closed after ${extra.ms.toFixed(0)} ms, reply ${JSON.stringify(extra.reply.slice(0, 12))}`,
    );
    expect(extra.reply).toBe('');
    expect(l.stats().accepted).toBe(0);
    expect(l.stats().dropped.connections).toBe(1);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
  }, 60_000);
});

describe('a refusal closes the socket before any pipelined request is read', () => {
  const pipelines: [string, string][] = [
    ['403 (wrong token)', rawPost('wrong', body)],
    ['404 (unknown source)', rawPost(TOKEN, body).replace('/hook/claude', '/hook/nope')],
    ['204 drop (text/plain)', rawPost(TOKEN, body, 'text/plain')],
  ];
  for (const [name, first] of pipelines) {
    it(`${name}, then a valid request on the same socket: only the first is answered, nothing is stored`, async () => {
      const { port, l, events } = await start();
      const reply = await rawExchange(port, first + rawPost(TOKEN, body), true);
      const statuses = reply.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
      expect(statuses.length).toBe(1);
      expect(events).toEqual([]);
      expect(l.stats().accepted).toBe(0);
      expect((await httpRequest(port, { path: '/hook/claude', headers: json, body })).status).toBe(204);
      expect(events.length).toBe(1);
    });
  }

  it('two valid pipelined requests are both answered and stored (control)', async () => {
    const { port, events } = await start();
    const reply = await rawExchange(
      port,
      `${rawPost(TOKEN, body)}${rawPost(TOKEN, body).replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n')}`,
      true,
    );
    expect(reply.match(/^HTTP\/1\.1 204/gm)?.length).toBe(2);
    expect(events.length).toBe(2);
  });
});

describe('only JSON and form bodies are parsed', () => {
  const cases: [string, string | undefined, boolean][] = [
    ['application/json', 'application/json', true],
    ['application/json; charset=utf-8', 'application/json; charset=utf-8', true],
    ['APPLICATION/JSON', 'APPLICATION/JSON', true],
    ['form', 'application/x-www-form-urlencoded', true],
    ['text/plain', 'text/plain', false],
    ['no content type', undefined, false],
    ['text/plain naming json in a parameter', 'text/plain; x=application/json', false],
    ['application/jsonp', 'application/jsonp', false],
    ['multipart/x-www-form-urlencoded', 'multipart/x-www-form-urlencoded', false],
    ['garbage', ';;;', false],
  ];
  for (const [name, contentType, parsed] of cases) {
    it(`${name} → ${parsed ? 'event' : "204, nothing stored, dropped 'content-type'"}`, async () => {
      const { port, l, events } = await start();
      const form = new URLSearchParams({ paneKey: PANE, payload: JSON.stringify({ hook_event_name: 'Stop' }) });
      const isForm = contentType?.includes('x-www-form-urlencoded') === true && contentType.startsWith('application');
      const headers: Record<string, string> = { 'x-orca-agent-hook-token': TOKEN };
      if (contentType !== undefined) headers['content-type'] = contentType;
      const r = await httpRequest(port, { path: '/hook/claude', headers, body: isForm ? form.toString() : body });
      expect(r.status).toBe(204);
      expect(events.length).toBe(parsed ? 1 : 0);
      expect(l.stats().dropped['content-type']).toBe(parsed ? 0 : 1);
    });
  }
});

describe('a pane key with surrounding whitespace is refused, not trimmed', () => {
  const keys = [` ${PANE}`, `${PANE} `, `\t${PANE}`, `${PANE}\n`, `\u00a0${PANE}`];
  for (const key of keys) {
    it(`${JSON.stringify(key)} as JSON, form and raw-json-v1 meta`, async () => {
      const { port, l, events } = await start();
      const payload = JSON.stringify({ hook_event_name: 'Stop' });
      const meta = Buffer.from([key, '', '', '', '', ''].join('\u001f')).toString('base64');
      const posts: [Record<string, string>, string][] = [
        [json, JSON.stringify({ paneKey: key, payload: { hook_event_name: 'Stop' } })],
        [
          { ...json, 'content-type': 'application/x-www-form-urlencoded' },
          new URLSearchParams({ paneKey: key, payload }).toString(),
        ],
        [{ ...json, 'x-orca-agent-hook-meta': meta, 'x-orca-agent-hook-meta-encoding': 'base64' }, payload],
      ];
      for (const [headers, b] of posts) {
        expect((await httpRequest(port, { path: '/hook/claude', headers, body: b })).status).toBe(204);
      }
      expect(events).toEqual([]);
      expect(l.stats().dropped['pane-key']).toBe(3);
    });
  }
});
