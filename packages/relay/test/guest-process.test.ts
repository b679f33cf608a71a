import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { guestBundle } from '../src/guest/bundle.ts';
import { guestPaths } from '../src/guest/paths.ts';
import { RELAY_EXIT_CODES } from '../src/protocol.ts';
import { paneKey } from './helpers/fixtures.ts';
import { attachHost } from './helpers/host-link.ts';
import { httpRequest } from './helpers/http.ts';

const bundle = guestBundle();
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return typeof a === 'object' && a !== null ? a.port : 0;
}

/** A preload (`node --import`) whose code runs on the first timer tick after the relay started. */
function onFirstTick(code: string): string[] {
  return ['--import', `data:text/javascript,setTimeout(() => { ${code} }, 0);`];
}

async function startRelay(env: Record<string, string>, nodeArgs: readonly string[] = []) {
  const home = await mkdtemp(join(tmpdir(), 'orca-guest-home-'));
  const child = spawn(process.execPath, [...nodeArgs, bundle.path], {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, home, exited, stderr: () => stderr };
}

describe('guest relay process (real child, temp HOME)', () => {
  it.each([
    {},
    { ORCA_AGENT_HOOK_PORT: '0', ORCA_AGENT_HOOK_TOKEN: 't' },
    { ORCA_AGENT_HOOK_PORT: '65536', ORCA_AGENT_HOOK_TOKEN: 't' },
    { ORCA_AGENT_HOOK_PORT: '4711', ORCA_AGENT_HOOK_TOKEN: '' },
    { ORCA_AGENT_HOOK_PORT: '01', ORCA_AGENT_HOOK_TOKEN: 't' },
  ])('bad env %j → exit 1, no sentinel', async (env) => {
    const r = await startRelay(env as Record<string, string>);
    let out = '';
    r.child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    expect(await r.exited).toBe(1);
    expect(out).toBe('');
    expect(r.stderr()).toContain('orca-relay: missing or invalid ORCA_AGENT_HOOK_PORT/ORCA_AGENT_HOOK_TOKEN');
  });

  it('sentinel first (no handshake), then frames; POST and guestfs.home right after it work; stdin EOF → 0, port freed', async () => {
    const port = await freePort();
    const r = await startRelay({
      ORCA_AGENT_HOOK_PORT: String(port),
      ORCA_AGENT_HOOK_TOKEN: 'tok',
      ORCA_GUEST_INSTANCE: ' My-Box ',
    });
    const link = attachHost(r.child.stdout, r.child.stdin);
    const s = await link.sentinel;
    expect(s).toEqual({ version: '0.1.0', preamble: 'ORCA-RELAY v0.1.0 READY\n' });
    const body = JSON.stringify({ paneKey: paneKey(1), payload: { hook_event_name: 'Stop' } });
    const post = await httpRequest(port, {
      path: '/hook/claude',
      headers: { 'x-orca-agent-hook-token': 'tok', 'content-type': 'application/json' },
      body,
    });
    expect(post.status).toBe(204);
    const home = (await link.channel.request('guestfs.home')) as Record<string, unknown>;
    expect(home).toEqual({
      ok: true,
      home: r.home,
      boundPort: port,
      portFallback: false,
      endpointPath: guestPaths(r.home, 'my-box', bundle.version).endpointPath,
      endpointWritten: true,
      version: bundle.version,
    });
    expect(await readFile(String(home.endpointPath), 'utf8')).toBe(
      `ORCA_AGENT_HOOK_PORT=${port}\nORCA_AGENT_HOOK_TOKEN=tok\nORCA_AGENT_HOOK_ENV=remote\nORCA_AGENT_HOOK_VERSION=2\n`,
    );
    await until('a notification', () => link.notifications.length > 0);
    expect(link.notifications[0]?.params).toMatchObject({
      source: 'claude',
      paneKey: paneKey(1),
      connectionId: null,
      sentAt: expect.any(Number),
    });
    expect(link.channel.stats().ignoredHandshakes).toBe(0);
    r.child.stdin.end();
    expect(await r.exited).toBe(0);
    expect(await freePort().then(() => true)).toBe(true);
    const again = createServer();
    await new Promise<void>((res, rej) => {
      again.once('error', rej);
      again.listen(port, '127.0.0.1', res);
    });
    again.close();
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s → exit 0', async (sig) => {
    const r = await startRelay({ ORCA_AGENT_HOOK_PORT: String(await freePort()), ORCA_AGENT_HOOK_TOKEN: 'tok' });
    const link = attachHost(r.child.stdout, r.child.stdin);
    await link.sentinel;
    r.child.kill(sig);
    expect(await r.exited).toBe(0);
  });

  it('a broken stdout ends the relay', async () => {
    const port = await freePort();
    const r = await startRelay({ ORCA_AGENT_HOOK_PORT: String(port), ORCA_AGENT_HOOK_TOKEN: 'tok' });
    const link = attachHost(r.child.stdout, r.child.stdin);
    await link.sentinel;
    r.child.stdout.destroy();
    // Keep posting until a write hits the closed pipe.
    const body = JSON.stringify({ paneKey: paneKey(2), payload: {} });
    const code = await Promise.race([
      r.exited,
      (async () => {
        for (;;) {
          await httpRequest(port, { path: '/hook/claude', headers: { 'x-orca-agent-hook-token': 'tok' }, body }).catch(
            () => undefined,
          );
          await new Promise((res) => setTimeout(res, 20));
        }
      })(),
    ]);
    expect(code).toBe(0);
  });

  it('an uncaught exception exits 1; an unhandled rejection is only logged', async () => {
    const thrown = await startRelay(
      { ORCA_AGENT_HOOK_PORT: String(await freePort()), ORCA_AGENT_HOOK_TOKEN: 'tok' },
      onFirstTick("throw new Error('test throw');"),
    );
    expect(await thrown.exited).toBe(1);
    expect(thrown.stderr()).toContain('orca-relay: uncaught: Error: test throw');
    const rejected = await startRelay(
      { ORCA_AGENT_HOOK_PORT: String(await freePort()), ORCA_AGENT_HOOK_TOKEN: 'tok' },
      onFirstTick("void Promise.reject(new Error('test rejection'));"),
    );
    const link = attachHost(rejected.child.stdout, rejected.child.stdin);
    await link.sentinel;
    expect(await link.channel.request('guestfs.home')).toMatchObject({ ok: true });
    expect(rejected.stderr()).toContain('unhandled rejection: test rejection');
    rejected.child.stdin.end();
    expect(await rejected.exited).toBe(0);
  });

  it('CLI: --version prints one JSON line; other args → one ORCA_RELAY_USAGE line, exit 2', async () => {
    const v = spawn(process.execPath, [bundle.path, '--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    v.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    expect(await new Promise((r) => v.on('close', r))).toBe(0);
    expect(JSON.parse(out)).toEqual({ name: 'orca-relay', version: bundle.version, protocol: '0.1.0' });
    const bad = spawn(process.execPath, [bundle.path, '--nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    bad.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    expect(await new Promise((r) => bad.on('close', r))).toBe(RELAY_EXIT_CODES.badArgs);
    expect(err).toBe(
      'orca-relay: ORCA_RELAY_USAGE: unexpected argument "--nope"; usage: orca-relay (the guest relay on stdio, inputs from env) | orca-relay --version\n',
    );
  });

  it('the bundle is self-contained and never imports child_process', async () => {
    const code = bundle.code.toString('utf8');
    expect(code.includes('child_process')).toBe(false);
    expect(
      /require\("(?!node:|fs|path|os|crypto|http|net|stream|events|url|util|buffer|string_decoder|zlib|assert|tty)[^"]+"\)/.test(
        code,
      ),
    ).toBe(false);
  });
});
