import { spawn } from 'node:child_process';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestBundle } from '../src/guest/bundle.ts';
import { guestPaths } from '../src/guest/paths.ts';
import { createHookListener, type HookListener } from '../src/listener/hook-listener.ts';
import { acceptRelayed } from '../src/listener/trust-boundary.ts';
import type { RelayedEvent } from '../src/listener/types.ts';
import { type NetnsHolder, netnsSupport, startNetnsHolder } from '../src/manager/netns.ts';
import { createRelayManager, type RelayManager } from '../src/manager/relay-manager.ts';
import { enterArgv, netnsSpawner } from '../src/manager/spawners.ts';
import type { GuestHandle } from '../src/manager/types.ts';
import { paneKey } from './helpers/fixtures.ts';
import { alive, curlHook, run } from './helpers/proc.ts';

const support = await netnsSupport();
if (!support.ok) console.log(`[skip] netns e2e: ${support.reason}`);

describe.skipIf(!support.ok)('netns e2e (real unshare/nsenter, real curl)', () => {
  const token = 'host-token-e2e';
  const instanceKey = 'e2einstance';
  const hostEvents: RelayedEvent[] = [];
  const guestEvents: RelayedEvent[] = [];
  const connects: GuestHandle[] = [];
  const warnings: string[] = [];
  const holders = new Map<string, NetnsHolder>();
  let host: HookListener;
  let hostPort = 0;
  let home = '';
  let manager: RelayManager;

  beforeAll(async () => {
    host = createHookListener({
      token,
      port: 0,
      onEvent: (e) => {
        const r = acceptRelayed(e, 'local', { now: () => Date.now() });
        if (!('drop' in r)) hostEvents.push(r);
      },
    });
    hostPort = (await host.start()).port;
    home = await mkdtemp(join(tmpdir(), 'orca-netns-home-'));
    holders.set('dev', await startNetnsHolder());
    holders.set('busy', await startNetnsHolder());
    manager = createRelayManager({
      spawners: [netnsSpawner({ holderPid: (n) => holders.get(n)?.pid, home: () => home })],
      bundle: guestBundle(),
      hostPort: () => hostPort,
      hostToken: () => token,
      instanceKey,
      // Why: the manager hands raw params on; the host's trust boundary is played here by acceptRelayed.
      ingest: (params, connectionId) => {
        const r = acceptRelayed(params, connectionId, { now: () => Date.now() });
        if (!('drop' in r)) guestEvents.push(r);
        return r;
      },
      onConnect: async (g) => {
        connects.push(g);
      },
      log: { debug() {}, info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
  });

  afterAll(async () => {
    manager?.disposeAll();
    await host?.stop();
    for (const h of holders.values()) {
      h.kill();
      await h.exited;
    }
  });

  const dev = () => holders.get('dev')?.pid ?? 0;
  const body = (i: number) => ({ paneKey: paneKey(i), payload: { hook_event_name: 'Stop', n: i } });

  it('nothing listens on the host port inside the namespace before the relay starts', async () => {
    const r = await run(enterArgv(dev(), curlHook(hostPort, token, 'claude', body(1))));
    expect(r.code).toBe(7); // curl: failed to connect
    expect(guestEvents).toEqual([]);
  });

  it('installs, launches and connects; a POST inside reaches ingest as netns:dev', async () => {
    const v = await manager.ensure('netns', 'dev');
    expect(v).toMatchObject({ phase: 'running', connectionId: 'netns:dev' });
    const paths = guestPaths(home, instanceKey, guestBundle().version);
    expect(await readFile(paths.endpointPath, 'utf8')).toBe(
      `ORCA_AGENT_HOOK_PORT=${hostPort}\nORCA_AGENT_HOOK_TOKEN=${token}\nORCA_AGENT_HOOK_ENV=remote\nORCA_AGENT_HOOK_VERSION=2\n`,
    );
    expect(connects[0]).toMatchObject({
      home,
      boundPort: hostPort,
      portFallback: false,
      endpointPath: paths.endpointPath,
    });
    const r = await run(enterArgv(dev(), curlHook(hostPort, token, 'codex', body(2))));
    expect(r.stdout).toBe('204');
    const e = await until('the guest event of pane 2', () => guestEvents.find((x) => x.paneKey === paneKey(2)));
    expect(e).toMatchObject({ source: 'codex', connectionId: 'netns:dev', payload: { n: 2 } });
    expect(hostEvents.some((x) => x.paneKey === paneKey(2))).toBe(false);
  });

  it('the same POST from the host namespace reaches the host listener as local, never the guest', async () => {
    const r = await run(curlHook(hostPort, token, 'codex', body(3)));
    expect(r.stdout).toBe('204');
    expect(hostEvents.filter((x) => x.paneKey === paneKey(3)).map((x) => x.connectionId)).toEqual(['local']);
    // Why: a sentinel posted inside the namespace afterwards travels the guest's one ordered link;
    // once it has arrived, anything sent on that link before it has arrived too.
    const sentinel = await run(enterArgv(dev(), curlHook(hostPort, token, 'codex', body(30))));
    expect(sentinel.stdout).toBe('204');
    await until('the guest sentinel of pane 30', () => guestEvents.some((x) => x.paneKey === paneKey(30)));
    expect(hostEvents.some((x) => x.paneKey === paneKey(30))).toBe(false);
    expect(guestEvents.some((x) => x.paneKey === paneKey(3))).toBe(false);
  });

  it('relay kill -9 → one restart after cooldown, same namespace and endpoint file; a pane entered before delivers again', async () => {
    const first = connects[0];
    if (first?.pid === undefined) throw new Error('no relay pid');
    const endpoint = first.endpointPath;
    const before = (await stat(endpoint)).mtimeMs;
    // A pane living in the namespace: posts once per stdin line.
    const [file, ...args] = enterArgv(dev(), [
      'sh',
      '-c',
      `while IFS= read -r n; do curl -sS -o /dev/null --max-time 5 -H 'X-Orca-Agent-Hook-Token: ${token}' -H 'Content-Type: application/json' --data-binary "{\\"paneKey\\":\\"$n\\",\\"payload\\":{}}" http://127.0.0.1:${hostPort}/hook/claude; done`,
    ]);
    const pane = spawn(file ?? 'nsenter', args, { stdio: ['pipe', 'ignore', 'ignore'] });
    pane.stdin.write(`${paneKey(4)}\n`);
    await until('the guest event of pane 4', () => guestEvents.find((x) => x.paneKey === paneKey(4)));
    process.kill(first.pid, 'SIGKILL');
    await until('failed', () => manager.get('netns', 'dev')?.phase === 'failed', { timeoutMs: 5_000 });
    expect(manager.get('netns', 'dev')).toMatchObject({ failures: 1, phase: 'failed' });
    expect(warnings.some((w) => w.includes('netns:dev: link lost; scheduling restart in 10 s'))).toBe(true);
    await until('restart', () => connects.length === 2, { timeoutMs: 20_000 });
    await until('running', () => manager.get('netns', 'dev')?.phase === 'running', { timeoutMs: 5_000 });
    expect(connects[1]?.endpointPath).toBe(endpoint);
    expect((await stat(endpoint)).mtimeMs).toBeGreaterThanOrEqual(before);
    expect(connects[1]?.pid).not.toBe(first.pid);
    pane.stdin.write(`${paneKey(5)}\n`);
    const e = await until('the live (not replayed) guest event of pane 5', () =>
      guestEvents.find((x) => x.paneKey === paneKey(5) && x.isReplay === undefined),
    );
    expect(e.connectionId).toBe('netns:dev');
    pane.stdin.end();
    pane.kill();
    expect(alive(first.pid)).toBe(false);
  }, 40_000);

  it('port taken inside the namespace → fallback, file rewritten with the bound port, portFallback reported', async () => {
    const busy = holders.get('busy')?.pid ?? 0;
    const [file, ...args] = enterArgv(busy, [
      process.execPath,
      '-e',
      `require('net').createServer().listen(${hostPort}, '127.0.0.1', () => console.log('up'))`,
    ]);
    const blocker = spawn(file ?? 'nsenter', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((r) => blocker.stdout.once('data', r));
    try {
      const v = await manager.ensure('netns', 'busy');
      expect(v.phase).toBe('running');
      const g = connects.find((c) => c.connectionId === 'netns:busy');
      expect(g?.portFallback).toBe(true);
      expect(g?.boundPort).not.toBe(hostPort);
      expect(await readFile(g?.endpointPath ?? '', 'utf8')).toContain(`ORCA_AGENT_HOOK_PORT=${g?.boundPort}\n`);
      expect(warnings.some((w) => w.includes('netns:busy') && w.includes('occupied'))).toBe(true);
      const r = await run(enterArgv(busy, curlHook(g?.boundPort ?? 0, token, 'gemini', body(6))));
      expect(r.stdout).toBe('204');
      expect(
        await until('the guest event of pane 6', () => guestEvents.find((x) => x.paneKey === paneKey(6))),
      ).toMatchObject({
        connectionId: 'netns:busy',
      });
    } finally {
      blocker.kill();
    }
  });

  it('disposal leaves no relay', async () => {
    const pids = connects.map((c) => c.pid).filter((p): p is number => p !== undefined);
    manager.disposeAll();
    await until('relays gone', () => pids.every((p) => !alive(p)), { timeoutMs: 5_000 });
    expect(await manager.ensure('netns', 'dev')).toMatchObject({ phase: 'inactive' });
  });
});
