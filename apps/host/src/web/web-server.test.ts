import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHost } from '../host/host.ts';
import { silentLogger } from '../runtime/logger.ts';
import { startWebServer, WEB_CONTENT_SECURITY_POLICY, type WebServer } from './web-server.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function setup(): Promise<WebServer> {
  const root = mkdtempSync(join(tmpdir(), 'orca-web-'));
  const assets = join(root, 'assets');
  mkdirSync(join(assets, 'assets'), { recursive: true });
  writeFileSync(join(assets, 'index.html'), '<!doctype html><title>orca</title>');
  writeFileSync(join(assets, 'assets', 'app.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'not served');
  const host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
  const web = await startWebServer({ host, bind: { host: '127.0.0.1', port: 0 }, assets });
  cleanup.push(() => web.close().finally(() => host.stop()));
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
    expect(web.sessions()).toEqual([{ id: session.sessionId, createdAt: expect.any(Number), sockets: 1 }]);
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
});
