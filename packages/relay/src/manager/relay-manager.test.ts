import { PassThrough } from 'node:stream';
import { until } from '@orca/testkit';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/clock.ts';
import { type FakeChild, scriptedSpawn } from '../../test/helpers/fake-child.ts';
import { paneKey } from '../../test/helpers/fixtures.ts';
import {
  COOLDOWN_CAP_MS,
  COOLDOWN_LINK_DEATH_BASE_MS,
  COOLDOWN_STARTUP_BASE_MS,
  COOLDOWN_UNAVAILABLE_BASE_MS,
  PRE_SENTINEL_MAX_BYTES,
  PROBE_TIMEOUT_MS,
  RESTART_SLACK_MS,
  SENTINEL_TIMEOUT_MS,
  STABLE_UPTIME_MS,
  TRANSIENT_RETRY_DELAY_MS,
} from '../constants.ts';
import { runGuestRelay } from '../guest/run-guest-relay.ts';
import { acceptRelayed } from '../listener/trust-boundary.ts';
import type { RelayedEvent } from '../listener/types.ts';
import { createRelayManager } from './relay-manager.ts';
import type { GuestHandle, GuestSpawner, IngestFn, SpawnFn, StartupFailure } from './types.ts';

const tick = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

function testSpawner(over: Partial<GuestSpawner> = {}): GuestSpawner {
  return {
    kind: 'test',
    key: (t) => t.trim().toLowerCase(),
    connectionId: (t) => `test:${t.trim().toLowerCase()}`,
    token: (_t, h) => h,
    launch: (t, env) => ({ file: 'launch', args: [t], env }),
    install: (t) => ({ file: 'install', args: [t], env: {} }),
    classify: () => 'other',
    isRunning: async () => true,
    ...over,
  };
}

function setup(
  script: (c: FakeChild, n: number, clock: ReturnType<typeof manualClock>) => void,
  opts: { spawner?: GuestSpawner; onConnect?: (g: GuestHandle) => Promise<void>; ingest?: IngestFn } = {},
) {
  const clock = manualClock();
  const { spawn, children } = scriptedSpawn((c, n) => script(c, n, clock));
  const events: RelayedEvent[] = [];
  const warnings: string[] = [];
  const m = createRelayManager({
    spawners: [opts.spawner ?? testSpawner()],
    bundle: { code: 'x', version: '1.0.0+abc' },
    hostPort: () => 4711,
    hostToken: () => 'host-token',
    instanceKey: 'inst',
    // Why: the manager hands raw params on; the host's trust boundary is played here by acceptRelayed.
    ingest:
      opts.ingest ??
      ((params, connectionId) => {
        const r = acceptRelayed(params, connectionId, clock);
        if (!('drop' in r)) events.push(r);
        return r;
      }),
    clock,
    spawn,
    log: { debug() {}, info() {}, warn: (w) => warnings.push(w), error: (w) => warnings.push(w) },
    ...(opts.onConnect === undefined ? {} : { onConnect: opts.onConnect }),
  });
  const launches = () => children.filter((c) => c.file === 'launch');
  const installs = () => children.filter((c) => c.file === 'install');
  return { m, clock, children, events, warnings, launches, installs };
}

const ok = (c: FakeChild, _n: number, clock: ReturnType<typeof manualClock>) => {
  if (c.file === 'install') c.exit(0);
  else c.serve(clock);
};

describe('relay manager: startup', () => {
  it('STARTING → RUNNING with the guest env, then requests a replay', async () => {
    const requested: string[] = [];
    const t = setup((c, _n, clock) => {
      const g = c.serve(clock);
      g.onRequest('agent_hook.requestReplay', () => {
        requested.push('replay');
        return { replayed: 0 };
      });
    });
    const p = t.m.ensure('test', 'A');
    expect(t.m.get('test', 'a')?.phase).toBe('starting');
    expect(await p).toMatchObject({ phase: 'running', connectionId: 'test:a', failures: 0 });
    expect(t.launches()[0]?.env).toEqual({
      ORCA_AGENT_HOOK_PORT: '4711',
      ORCA_AGENT_HOOK_TOKEN: 'host-token',
      ORCA_GUEST_INSTANCE: 'inst',
      ORCA_RELAY_VERSION: '1.0.0+abc',
    });
    await tick();
    expect(requested).toEqual(['replay']);
  });

  it('padded/cased concurrent ensures → one spawn; two targets coexist', async () => {
    const t = setup(ok);
    const [a, b, c] = await Promise.all([
      t.m.ensure('test', 'Box'),
      t.m.ensure('test', ' box '),
      t.m.ensure('test', 'other'),
    ]);
    expect(a).toEqual(b);
    expect(t.launches().length).toBe(2);
    expect(c.phase).toBe('running');
    expect(
      t.m
        .list()
        .map((v) => v.connectionId)
        .sort(),
    ).toEqual(['test:box', 'test:other']);
    expect(await t.m.ensure('test', 'BOX')).toMatchObject({ phase: 'running' });
    expect(t.launches().length).toBe(2);
  });

  it('is a no-op (warn once) until the host port and token exist; duplicate kinds are refused', async () => {
    const warnings: string[] = [];
    const m = createRelayManager({
      spawners: [testSpawner()],
      bundle: { code: 'x', version: '1' },
      hostPort: () => 0,
      hostToken: () => 't',
      instanceKey: 'i',
      ingest() {},
      spawn: () => {
        throw new Error('no spawn expected');
      },
      log: { debug() {}, info() {}, warn: (w) => warnings.push(w), error() {} },
    });
    expect(await m.ensure('test', 'a')).toMatchObject({ phase: 'inactive' });
    expect(await m.ensure('test', 'b')).toMatchObject({ phase: 'inactive' });
    expect(warnings.length).toBe(1);
    expect(() =>
      createRelayManager({
        spawners: [testSpawner(), testSpawner()],
        bundle: { code: 'x', version: '1' },
        hostPort: () => 1,
        hostToken: () => 't',
        instanceKey: 'i',
        ingest() {},
      }),
    ).toThrow(expect.objectContaining({ code: 'ORCA_RELAY_DUPLICATE_KIND' }));
    expect(() =>
      createRelayManager({
        spawners: [],
        bundle: { code: 'x', version: 'a b' },
        hostPort: () => 1,
        hostToken: () => 't',
        instanceKey: 'i',
        ingest() {},
      }),
    ).toThrow(expect.objectContaining({ code: 'ORCA_RELAY_BAD_VERSION' }));
  });

  it('installs once after a stale launch (42), then retries and connects; the install gets the script on stdin', async () => {
    const t = setup((c, n, clock) => {
      if (c.file === 'install') c.exit(0);
      else if (n === 0) c.exit(42, 'stale');
      else c.serve(clock);
    });
    expect(await t.m.ensure('test', 'a')).toMatchObject({ phase: 'running' });
    expect(t.children.map((c) => c.file)).toEqual(['launch', 'install', 'launch']);
    expect(t.installs()[0]?.stdinText).toContain('base64 -d > "$d/relay.cjs.$$.tmp" <<\'ORCA_RELAY_EOF_\'');
  });

  it('install failure → FAILED with the stderr tail; a second startup failure → FAILED startup failed', async () => {
    const t1 = setup((c) => (c.file === 'install' ? c.exit(3, 'disk\0 full') : c.exit(42)));
    expect(await t1.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      failures: 1,
      lastError: 'guest install failed (code 3): disk full',
    });
    const t2 = setup((c) => (c.file === 'install' ? c.exit(0) : c.exit(1, 'boom')));
    expect(await t2.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      lastError: 'startup failed (test, code 1): boom',
    });
    expect(t2.children.map((c) => c.file)).toEqual(['launch', 'install', 'launch']);
  });

  it('install timeout → FAILED guest install timed out', async () => {
    const t = setup((c) => {
      if (c.file === 'launch') c.exit(42);
    });
    const p = t.m.ensure('test', 'a');
    await tick(10);
    t.clock.advance(30_000);
    expect(await p).toMatchObject({ phase: 'failed', lastError: 'guest install timed out' });
  });

  it('43 and unavailable → FAILED with the 10 min base and no install', async () => {
    const t = setup((c) => c.exit(43, 'no node'));
    expect(await t.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      failures: 1,
      cooldownUntil: t.clock.now() + COOLDOWN_UNAVAILABLE_BASE_MS,
    });
    expect(t.installs()).toEqual([]);
    const u = setup((c) => c.exit(1), { spawner: testSpawner({ classify: () => 'unavailable' }) });
    expect(await u.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      cooldownUntil: u.clock.now() + COOLDOWN_UNAVAILABLE_BASE_MS,
    });
    expect(u.installs()).toEqual([]);
  });

  it('transient failures retry twice, 2 s apart, then install', async () => {
    const t = setup(
      (c, n, clock) => {
        if (c.file === 'install') c.exit(0);
        else if (n < 4) c.exit(255, 'Connection reset');
        else c.serve(clock);
      },
      {
        spawner: testSpawner({
          classify: (f: StartupFailure) => (f.kind === 'exit' && f.code === 255 ? 'transient' : 'other'),
        }),
      },
    );
    const p = t.m.ensure('test', 'a');
    await tick(10);
    expect(t.launches().length).toBe(1);
    t.clock.advance(TRANSIENT_RETRY_DELAY_MS - 1);
    await tick(10);
    expect(t.launches().length).toBe(1);
    t.clock.advance(1);
    await tick(10);
    expect(t.launches().length).toBe(2);
    t.clock.advance(TRANSIENT_RETRY_DELAY_MS);
    await tick(20);
    expect(t.children.map((c) => c.file)).toEqual(['launch', 'launch', 'launch', 'install', 'launch']);
    expect((await p).phase).toBe('running');
  });

  it('sentinel: split byte-by-byte, after rc-file garbage, with a notification in the trailing bytes', async () => {
    const t = setup((c, _n, clock) =>
      c.serve(clock, {
        garbage: 'Welcome to host\nmotd\n',
        splitSentinel: true,
        trailing: (g) =>
          g.notify('agent.hook', {
            source: 'claude',
            paneKey: paneKey(1),
            payload: {},
            receivedAt: 1,
            sentAt: 1,
            connectionId: null,
          }),
      }),
    );
    expect((await t.m.ensure('test', 'a')).phase).toBe('running');
    expect(t.events.map((e) => [e.connectionId, e.paneKey])).toEqual([['test:a', paneKey(1)]]);
    const u = setup((c, _n, clock) =>
      c.serve(clock, {
        trailing: (g) => {
          g.notify('agent.hook', { source: 'nope', paneKey: paneKey(2), payload: {} });
          g.notify('other.thing', { source: 'claude', paneKey: paneKey(2), payload: {} });
          g.notify('agent.hook', { source: 'claude', paneKey: paneKey(2), payload: {}, connectionId: null });
        },
      }),
    );
    expect((await u.m.ensure('test', 'a')).phase).toBe('running');
    expect(u.events.map((e) => e.paneKey)).toEqual([paneKey(2)]);
    expect(u.m.stats()).toEqual({ ingested: 1, dropped: { source: 1 } });
  });

  it('hands the raw params and the connectionId to the host ingest, untouched; counts by its answer', async () => {
    const seen: [unknown, string][] = [];
    const answers: unknown[] = [{ source: 'claude', paneKey: paneKey(1) }, null, { drop: 'pane-key' }, undefined];
    const sent = [
      { source: 'claude', paneKey: paneKey(1), payload: { x: 1 }, connectionId: null, sentAt: 5, extra: [1] },
      { source: 'nope' },
      'not even an object',
      { source: 'codex', paneKey: paneKey(2), payload: {}, connectionId: 'forged' },
    ];
    const t = setup(
      (c, _n, clock) =>
        c.serve(clock, {
          trailing: (g) => {
            for (const p of sent) g.notify('agent.hook', p);
          },
        }),
      {
        ingest: (params, connectionId) => {
          seen.push([params, connectionId]);
          return answers[seen.length - 1];
        },
      },
    );
    expect((await t.m.ensure('test', 'A')).phase).toBe('running');
    expect(seen).toEqual(sent.map((p) => [p, 'test:a']));
    expect(t.m.stats()).toEqual({ ingested: 2, dropped: { refused: 1, 'pane-key': 1 } });
  });

  it('sentinel overflow, timeout, early exit (NUL-stripped stderr), other protocol version', async () => {
    const over = setup((c) => {
      if (c.file === 'install') c.exit(0);
      else c.stdout.write(Buffer.alloc(PRE_SENTINEL_MAX_BYTES + 1, 0x61));
    });
    expect(await over.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      lastError: 'startup failed (test, overflow): ',
    });
    expect(over.children.every((c) => c.killed || c.file === 'install')).toBe(true);

    const slow = setup((c) => c.file === 'install' && c.exit(0));
    const p = slow.m.ensure('test', 'a');
    await tick(10);
    slow.clock.advance(SENTINEL_TIMEOUT_MS);
    await tick(10);
    slow.clock.advance(SENTINEL_TIMEOUT_MS);
    expect(await p).toMatchObject({ phase: 'failed', lastError: 'startup failed (test, timeout): ' });

    const early = setup((c) => c.exit(c.file === 'install' ? 0 : 9, 'e\0r\0r\0'));
    expect(await early.m.ensure('test', 'a')).toMatchObject({ lastError: 'startup failed (test, code 9): err' });
    expect(early.warnings).toContain('[relay] test:a: startup failed (test, code 9): err');

    const ver = setup((c) => (c.file === 'install' ? c.exit(0) : c.stdout.write('ORCA-RELAY v9.9.9 READY\n')));
    expect(await ver.m.ensure('test', 'a')).toMatchObject({ lastError: 'startup failed (test, protocol 9.9.9): ' });
  });

  it('a bad home → FAILED with the startup base', async () => {
    const t = setup((c, _n, clock) => c.serve(clock, { home: { ok: true } }));
    expect(await t.m.ensure('test', 'a')).toMatchObject({
      phase: 'failed',
      lastError: 'connect failed: returned no home dir',
      cooldownUntil: t.clock.now() + COOLDOWN_STARTUP_BASE_MS,
    });
  });
});

describe('relay manager: failures, cooldowns, restarts', () => {
  it('cooldown grows with failures and is capped; ensure during cooldown is a no-op', async () => {
    const t = setup((c) => (c.file === 'install' ? c.exit(0) : c.exit(1)), {
      spawner: testSpawner({ isRunning: async () => true }),
    });
    const start = t.clock.now();
    expect(await t.m.ensure('test', 'a')).toMatchObject({
      failures: 1,
      cooldownUntil: start + COOLDOWN_STARTUP_BASE_MS,
    });
    expect(await t.m.ensure('test', 'a')).toMatchObject({ failures: 1 });
    const spawnsBefore = t.children.length;
    t.clock.advance(COOLDOWN_STARTUP_BASE_MS + RESTART_SLACK_MS);
    await tick(20);
    expect(t.children.length).toBeGreaterThan(spawnsBefore);
    expect(t.m.get('test', 'a')).toMatchObject({
      failures: 2,
      cooldownUntil: t.clock.now() + 2 * COOLDOWN_STARTUP_BASE_MS,
    });
    for (let i = 0; i < 12; i++) {
      t.clock.advance(COOLDOWN_CAP_MS + RESTART_SLACK_MS);
      await tick(20);
    }
    const v = t.m.get('test', 'a');
    expect((v?.cooldownUntil ?? 0) - t.clock.now()).toBe(COOLDOWN_CAP_MS);
  });

  it('probe false or throwing deletes the guest; true restarts it', async () => {
    for (const isRunning of [async () => false, async () => Promise.reject(new Error('x'))]) {
      const t = setup((c) => c.exit(43), { spawner: testSpawner({ isRunning }) });
      await t.m.ensure('test', 'a');
      t.clock.advance(COOLDOWN_UNAVAILABLE_BASE_MS + RESTART_SLACK_MS);
      await tick(10);
      expect(t.m.get('test', 'a')).toBeUndefined();
    }
  });

  it('a probe that never answers counts as not running after the probe timeout', async () => {
    const t = setup((c) => c.exit(43), { spawner: testSpawner({ isRunning: () => new Promise<boolean>(() => {}) }) });
    await t.m.ensure('test', 'a');
    t.clock.advance(COOLDOWN_UNAVAILABLE_BASE_MS + RESTART_SLACK_MS);
    await tick(5);
    expect(t.m.get('test', 'a')?.phase).toBe('failed');
    t.clock.advance(PROBE_TIMEOUT_MS);
    await tick(5);
    expect(t.m.get('test', 'a')).toBeUndefined();
    expect(t.clock.pending()).toBe(0);
  });

  it('host-side fs.writeFile refuses content whose encoding passes the frame cap, unsent', async () => {
    let handle: GuestHandle | undefined;
    let writes = 0;
    const t = setup(
      (c, _n, clock) => {
        const g = c.serve(clock);
        g.onRequest('guestfs.writeFile', () => {
          writes++;
          return { ok: true };
        });
      },
      {
        onConnect: async (g) => {
          handle = g;
        },
      },
    );
    await t.m.ensure('test', 'a');
    const quotes = '"'.repeat(9 * 1024 * 1024);
    expect(await handle?.fs.writeFile('/home/g/x', quotes)).toMatchObject({ ok: false, errno: 'EFBIG' });
    expect(await handle?.fs.writeFile('/home/g/x', 'small')).toEqual({ ok: true });
    expect(writes).toBe(1);
  });

  it('an ensure landing during the probe await survives a false probe', async () => {
    let release: (v: boolean) => void = () => {};
    const t = setup((c, n, clock) => (n === 0 ? c.exit(43) : c.serve(clock)), {
      spawner: testSpawner({
        isRunning: () =>
          new Promise<boolean>((r) => {
            release = r;
          }),
      }),
    });
    await t.m.ensure('test', 'a');
    t.clock.advance(COOLDOWN_UNAVAILABLE_BASE_MS + RESTART_SLACK_MS);
    await tick(5);
    const again = t.m.ensure('test', 'a');
    release(false);
    expect(await again).toMatchObject({ phase: 'running', failures: 1 });
    await tick(5);
    expect(t.m.get('test', 'a')?.phase).toBe('running');
    expect(t.launches().filter((c) => !c.killed).length).toBe(1);
  });

  it('link death → FAILED(10 s); failures reset first after ≥ 2 min uptime; close + dispose in one tick → one failure', async () => {
    const t = setup(ok);
    await t.m.ensure('test', 'a');
    const c0 = t.launches()[0];
    c0?.guest?.dispose();
    c0?.exit(0);
    await tick(10);
    expect(t.m.get('test', 'a')).toMatchObject({
      phase: 'failed',
      failures: 1,
      cooldownUntil: t.clock.now() + COOLDOWN_LINK_DEATH_BASE_MS,
    });
    expect(t.warnings).toContain('[relay] test:a: link lost; scheduling restart in 10 s');
    t.clock.advance(COOLDOWN_LINK_DEATH_BASE_MS + RESTART_SLACK_MS);
    await tick(20);
    expect(t.m.get('test', 'a')).toMatchObject({ phase: 'running', failures: 1 });
    t.clock.advance(STABLE_UPTIME_MS);
    await tick(20);
    t.launches()[1]?.exit(0);
    await tick(10);
    expect(t.m.get('test', 'a')).toMatchObject({ phase: 'failed', failures: 1 });
  });

  it('disposeAll while STARTING → nothing spawned after, ensure inert forever', async () => {
    const t = setup((c) => c.exit(42));
    const p = t.m.ensure('test', 'a');
    t.m.disposeAll();
    await p;
    await tick(10);
    expect(t.children.map((c) => c.file)).toEqual(['launch']);
    expect(await t.m.ensure('test', 'a')).toMatchObject({ phase: 'inactive' });
    expect(t.m.list()).toEqual([]);
  });

  it('remove stops one guest: child killed, no restart, no more ingest; a later ensure starts afresh', async () => {
    let connects = 0;
    const t = setup(ok, {
      onConnect: async () => {
        connects += 1;
      },
    });
    await Promise.all([t.m.ensure('test', 'A'), t.m.ensure('test', 'b')]);
    const [first] = t.launches();
    expect(connects).toBe(2);
    expect(await t.m.remove('test', ' a ')).toBe(true);
    expect(first?.killed).toBe(true);
    expect(t.m.get('test', 'a')).toBeUndefined();
    expect(t.m.list().map((v) => v.connectionId)).toEqual(['test:b']);
    t.clock.advance(COOLDOWN_CAP_MS * 2);
    await tick(20);
    expect(t.launches().length).toBe(2);
    expect(await t.m.remove('test', 'a')).toBe(false);
    expect(await t.m.ensure('test', 'a')).toMatchObject({ phase: 'running', failures: 0 });
    expect(connects).toBe(3);
    expect(t.launches().length).toBe(3);
  });

  it('remove while STARTING kills the child it gets; remove while paused forgets the target', async () => {
    const t = setup(() => undefined);
    const p = t.m.ensure('test', 'slow');
    await tick();
    expect(await t.m.remove('test', 'slow')).toBe(true);
    expect(t.m.list()).toEqual([]);
    t.launches()[0]?.serve(t.clock);
    expect(await p).toMatchObject({ phase: 'starting' });
    await tick(20);
    expect(t.launches()[0]?.killed).toBe(true);
    const u = setup(ok);
    await Promise.all([u.m.ensure('test', 'a'), u.m.ensure('test', 'b')]);
    u.m.pause();
    expect(await u.m.remove('test', 'a')).toBe(true);
    u.m.resume();
    await tick(20);
    expect(u.m.list().map((v) => v.target)).toEqual(['b']);
  });

  it('pause kills all and forgets; resume re-ensures the remembered targets', async () => {
    const t = setup(ok);
    await Promise.all([t.m.ensure('test', 'a'), t.m.ensure('test', 'b')]);
    t.m.pause();
    expect(t.m.list()).toEqual([]);
    expect(t.launches().every((c) => c.killed)).toBe(true);
    t.m.resume();
    await tick(20);
    expect(
      t.m
        .list()
        .map((v) => [v.target, v.phase])
        .sort(),
    ).toEqual([
      ['a', 'running'],
      ['b', 'running'],
    ]);
  });
});

describe('relay manager with runGuestRelay on in-memory pipes', () => {
  it('only agent.hook reaches ingest, tagged with the connectionId', async () => {
    const { freePort } = await import('../../test/helpers/memory-relay.ts');
    const guestPort = String(await freePort());
    const relays: ReturnType<typeof runGuestRelay>[] = [];
    let port = 0;
    const spawn: SpawnFn = (_file, _args, options) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const child = Object.assign(new (class extends PassThrough {})(), {
        pid: 1,
        stdin,
        stdout,
        stderr,
        kill: () => true,
      });
      const relay = runGuestRelay({
        env: { ...options.env, ORCA_AGENT_HOOK_PORT: guestPort } as Record<string, string>,
        stdin,
        stdout,
        stderr,
        home: '/tmp',
      });
      relays.push(relay);
      void relay.exited.then(() => child.emit('close', 0, null));
      return child as unknown as ReturnType<SpawnFn>;
    };
    const events: RelayedEvent[] = [];
    const m = createRelayManager({
      spawners: [testSpawner()],
      bundle: { code: 'x', version: '1' },
      hostPort: () => 4711,
      hostToken: () => 'tok',
      instanceKey: 'i',
      ingest: (params, connectionId) => {
        const r = acceptRelayed(params, connectionId, { now: () => Date.now() });
        if (!('drop' in r)) events.push(r);
        return r;
      },
      spawn,
      onConnect: async (g) => {
        port = g.boundPort;
      },
    });
    expect((await m.ensure('test', 'g1')).phase).toBe('running');
    const { httpRequest } = await import('../../test/helpers/http.ts');
    expect(port).toBeGreaterThan(0);
    await httpRequest(port, {
      path: '/hook/claude',
      headers: { 'x-orca-agent-hook-token': 'tok', 'content-type': 'application/json' },
      body: JSON.stringify({ paneKey: paneKey(3), payload: { a: 1 } }),
    });
    await until('the local event', () => events.length === 1);
    expect(events[0]).toMatchObject({
      source: 'claude',
      paneKey: paneKey(3),
      connectionId: 'test:g1',
      payload: { a: 1 },
    });
    m.disposeAll();
  });
});
