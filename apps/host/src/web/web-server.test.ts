import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { RUNTIME_CONTRACT } from '@orca/wire/contract';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openRawWebSocket } from '../../test/raw-websocket.ts';
import { createHost } from '../host/host.ts';
import type { Host } from '../host/host-types.ts';
import { silentLogger } from '../runtime/logger.ts';
import { createWebAuth, type WebAuth } from './web-auth.ts';
import { startWebServer, WEB_CONTENT_SECURITY_POLICY, WEB_SESSION_CHECK_PATH, type WebServer } from './web-server.ts';

const cleanup: (() => Promise<void> | void)[] = [];
const hosts = new Map<WebServer, Host>();
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function setup(o: { auth?: WebAuth } = {}): Promise<WebServer> {
  const root = mkdtempSync(join(tmpdir(), 'orca-web-'));
  const assets = join(root, 'assets');
  mkdirSync(join(assets, 'assets'), { recursive: true });
  writeFileSync(join(assets, 'index.html'), '<!doctype html><title>orca</title>');
  writeFileSync(join(assets, 'assets', 'app.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'not served');
  const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
  const web = await startWebServer({
    host,
    bind: { host: '127.0.0.1', port: 0 },
    assets,
    ...(o.auth ? { auth: o.auth } : {}),
  });
  cleanup.push(() => web.close().finally(() => host.stop()));
  hosts.set(web, host);
  return web;
}

/** Opens a socket; resolves with what happened: open (and every message until `until`) or the refusal status. */
function open(
  web: WebServer,
  protocols: string[],
  origin: string | undefined,
): Promise<{ status: number; messages: string[]; socket?: WebSocket }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, protocols, origin ? { origin } : {});
    const messages: string[] = [];
    socket.on('message', (d) => messages.push(String(d)));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, messages: body ? [body] : [] }));
    });
    socket.once('open', () => resolve({ status: 101, messages, socket }));
    socket.once('error', () => undefined);
  });
}

function call(socket: WebSocket, method: string): Promise<unknown> {
  return new Promise((resolve) => {
    const id = `${method}-${Math.random()}`;
    const onMessage = (d: WebSocket.RawData): void => {
      const env = JSON.parse(String(d)) as { id: string; ok: boolean; result?: unknown; error?: unknown };
      if (env.id !== id) return;
      socket.off('message', onMessage);
      resolve(env.ok ? env.result : env.error);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method }));
  });
}

function get(
  web: WebServer,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: web.port, path }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Pairs with a fresh code; the session id and token (the pairing socket is closed). */
async function pair(web: WebServer): Promise<{ sessionId: string; token: string }> {
  const code = new URL(web.pairingUrl()).hash.slice('#pair='.length);
  const paired = await open(web, ['orca.v1', `orca.pair.${code}`], web.origin);
  const session = (await call(paired.socket as WebSocket, 'web.session')) as { sessionId: string; token: string };
  paired.socket?.close();
  return session;
}

function checkToken(web: WebServer, token: string, origin?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port: web.port,
        path: WEB_SESSION_CHECK_PATH,
        headers: { authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body || 'null') }));
      },
    )
      .on('error', reject)
      .end();
  });
}

describe('the web server (orca start --web)', () => {
  it('serves the client with a strict CSP and nothing outside its folder', async () => {
    const web = await setup();
    const index = await get(web, '/');
    expect(index.status).toBe(200);
    expect(index.body).toBe('<!doctype html><title>orca</title>');
    expect(index.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(web, '/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/nope.js']) {
      expect((await get(web, path)).status).toBe(404);
    }
  });

  it('a pairing code opens one session whose token is handed over once; the code then opens nothing', async () => {
    const web = await setup();
    const origin = web.origin;
    const code = new URL(web.pairingUrl()).hash.slice('#pair='.length);
    const paired = await open(web, ['orca.v1', `orca.pair.${code}`], origin);
    expect(paired.status).toBe(101);
    const session = (await call(paired.socket as WebSocket, 'web.session')) as { sessionId: string; token: string };
    expect(session.token.startsWith(`${session.sessionId}.`)).toBe(true);
    expect(await call(paired.socket as WebSocket, 'web.session')).toEqual({ sessionId: session.sessionId });
    expect(web.sessions()).toEqual([
      {
        id: session.sessionId,
        createdAt: expect.any(Number),
        lastUsedAt: expect.any(Number),
        expiresAt: expect.any(Number),
        sockets: 1,
      },
    ]);
    expect(await open(web, ['orca.v1', `orca.pair.${code}`], origin)).toEqual({ status: 401, messages: [] });
    const resumed = await open(web, ['orca.v1', `orca.session.${session.token}`], origin);
    expect(resumed.status).toBe(101);
    expect(await call(resumed.socket as WebSocket, 'status.get')).toMatchObject({ capabilities: expect.any(Array) });
    const closed = new Promise<number>((r) => resumed.socket?.once('close', (c) => r(c)));
    expect(web.revoke(session.sessionId)).toBe(true);
    expect(await closed).toBe(4001);
    expect(await open(web, ['orca.v1', `orca.session.${session.token}`], origin)).toEqual({
      status: 401,
      messages: [],
    });
    paired.socket?.close();
  });

  it('a browser is served only the methods the contract offers to browsers; the others answer forbidden', async () => {
    const web = await setup();
    const { token } = await pair(web);
    const browser = await open(web, ['orca.v1', `orca.session.${token}`], web.origin);
    const socket = browser.socket as WebSocket;
    for (const [name, spec] of Object.entries(RUNTIME_CONTRACT)) {
      if (spec.browser || spec.streaming) continue;
      const answer = (await call(socket, name)) as { code?: string; message?: string };
      // Why: the runtime socket's own methods (shutdown, web admin) are not even registered here.
      expect(['forbidden', 'method_not_found'], name).toContain(answer.code);
    }
    for (const refused of ['guest.add', 'guest.list', 'store.gc', 'notify.test', 'notify.log']) {
      expect(await call(socket, refused), refused).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('not offered to browsers'),
      });
    }
    expect(hosts.get(web)?.guests.list()).toEqual([]);
    expect(await call(socket, 'terminal.list')).toEqual({ panes: [] });
    expect(await call(socket, 'status.get')).toMatchObject({ capabilities: expect.any(Array) });
    socket.close();
  });

  it('refuses a foreign or missing Origin, a wrong code, a forged token and no credential, sending no data', async () => {
    const web = await setup();
    const code = new URL(web.pairingUrl()).hash.slice('#pair='.length);
    expect(await open(web, ['orca.v1', `orca.pair.${code}`], 'http://evil.example')).toEqual({
      status: 403,
      messages: [],
    });
    expect(await open(web, ['orca.v1', `orca.pair.${code}`], `http://127.0.0.1:${web.port + 1}`)).toEqual({
      status: 403,
      messages: [],
    });
    expect(await open(web, ['orca.v1', `orca.pair.${code}`], undefined)).toEqual({ status: 403, messages: [] });
    expect(await open(web, ['orca.v1', `orca.pair.${code}x`], web.origin)).toEqual({ status: 401, messages: [] });
    expect(await open(web, ['orca.v1', 'orca.session.abc.def'], web.origin)).toEqual({ status: 401, messages: [] });
    expect(await open(web, ['orca.v1'], web.origin)).toEqual({ status: 401, messages: [] });
    // The refusals above did not consume the code: the rightful page still pairs.
    const ok = await open(web, ['orca.v1', `orca.pair.${code}`], web.origin);
    expect(ok.status).toBe(101);
    ok.socket?.close();
  });

  it('revoke binds a client that ignores close frames: its socket is cut, nothing it sends after runs', async () => {
    const web = await setup();
    const host = hosts.get(web) as Host;
    const { sessionId, token } = await pair(web);
    const raw = await openRawWebSocket(web.port, ['orca.v1', `orca.session.${token}`], web.origin);
    expect(raw.status).toBe(101);
    raw.sendText(JSON.stringify({ id: 'before', method: 'terminal.list' }));
    await until('the call before the revoke answered', () => raw.received.some((m) => m.includes('"before"')));
    expect(web.revoke(sessionId)).toBe(true);
    // Sent right after the revoke, before the client could have read anything.
    raw.sendText(
      JSON.stringify({
        id: 'after',
        method: 'terminal.create',
        params: { argv: ['/bin/sh', '-c', 'sleep 30'], cwd: '/' },
      }),
    );
    await raw.endedAt;
    expect(raw.received).toContain('close:4001:revoked');
    expect(raw.received.some((m) => m.includes('"after"'))).toBe(false);
    expect(raw.sendText('{"id":"later","method":"terminal.list"}')).toBe(false);
    expect(host.listPanes()).toEqual([]);
    expect(web.sessions()).toEqual([]);
    // The token now says why it opens nothing.
    expect(await checkToken(web, token, web.origin)).toEqual({ status: 401, body: { ok: false, reason: 'revoked' } });
  });

  it('a session idle past its lifetime is refused on its next frame and by the check, as expired', async () => {
    let now = 1_000_000;
    const web = await setup({ auth: createWebAuth({ now: () => now, idleMs: 60_000 }) });
    const { token } = await pair(web);
    expect(await checkToken(web, token, web.origin)).toMatchObject({ status: 200, body: { ok: true } });
    const raw = await openRawWebSocket(web.port, ['orca.v1', `orca.session.${token}`], web.origin);
    raw.sendText(JSON.stringify({ id: 'fresh', method: 'terminal.list' }));
    await until('answered while fresh', () => raw.received.some((m) => m.includes('"fresh"')));
    now += 60_001;
    raw.sendText(JSON.stringify({ id: 'stale', method: 'terminal.list' }));
    await raw.endedAt;
    expect(raw.received.some((m) => m.includes('"stale"'))).toBe(false);
    expect(raw.received).toContain('close:4001:expired');
    expect(await checkToken(web, token, web.origin)).toEqual({ status: 401, body: { ok: false, reason: 'expired' } });
    expect(await checkToken(web, 'nobody.nothing', web.origin)).toEqual({
      status: 401,
      body: { ok: false, reason: 'unknown_session' },
    });
    // Another origin learns nothing about a token.
    expect((await checkToken(web, token, 'http://evil.example')).status).toBe(403);
  });

  it('pairing codes expire unused, any number of devices pair, and wrong codes are rate-limited, not answered', async () => {
    let now = 5_000_000;
    const web = await setup({ auth: createWebAuth({ now: () => now }) });
    const stale = new URL(web.pair(60_000).url).hash.slice('#pair='.length);
    const phone = new URL(web.pair().url).hash.slice('#pair='.length);
    const laptop = new URL(web.pair().url).hash.slice('#pair='.length);
    now += 60_001;
    expect((await open(web, ['orca.v1', `orca.pair.${stale}`], web.origin)).status).toBe(401);
    for (const code of [phone, laptop]) {
      const ok = await open(web, ['orca.v1', `orca.pair.${code}`], web.origin);
      expect(ok.status).toBe(101);
      ok.socket?.close();
    }
    expect(web.sessions()).toHaveLength(2);
    // A guesser: after its free failures it gets 429s without its codes being checked.
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await open(web, ['orca.v1', `orca.pair.guess${i}`], web.origin)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
  });

  it('sessions are kept in the store: a new host on the same data dir admits the token', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-web-keep-'));
    const assets = join(root, 'assets');
    mkdirSync(assets, { recursive: true });
    writeFileSync(join(assets, 'index.html'), '<!doctype html>');
    const dataDir = join(root, 'data');
    const first = await createHost({ dataDir, logger: silentLogger(), home: root });
    const web1 = await startWebServer({ host: first, bind: { host: '127.0.0.1', port: 0 }, assets });
    const { sessionId, token } = await pair(web1);
    await web1.close();
    await first.stop();
    const second = await createHost({ dataDir, logger: silentLogger(), home: root });
    const web2 = await startWebServer({ host: second, bind: { host: '127.0.0.1', port: 0 }, assets });
    cleanup.push(() => web2.close().finally(() => second.stop()));
    expect(web2.sessions().map((s) => s.id)).toEqual([sessionId]);
    const again = await open(web2, ['orca.v1', `orca.session.${token}`], web2.origin);
    expect(again.status).toBe(101);
    again.socket?.close();
    expect(web2.revoke(sessionId)).toBe(true);
    expect((await open(web2, ['orca.v1', `orca.session.${token}`], web2.origin)).status).toBe(401);
  });
});
