import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  probeSshd,
  SSH_TEST_USER,
  SSH_TEST_USER_HOME,
  startThrowawaySshd,
  type ThrowawaySshd,
  until,
} from '@orca/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestBundle } from '../src/guest/bundle.ts';
import { createHookListener, type HookListener } from '../src/listener/hook-listener.ts';
import { acceptRelayed } from '../src/listener/trust-boundary.ts';
import type { RelayedEvent } from '../src/listener/types.ts';
import { createRelayManager, type RelayManager } from '../src/manager/relay-manager.ts';
import { sshSpawner } from '../src/manager/spawners.ts';
import type { GuestHandle } from '../src/manager/types.ts';
import { paneKey } from './helpers/fixtures.ts';
import { curlHook, run } from './helpers/proc.ts';

const USER = SSH_TEST_USER;
const USER_HOME = SSH_TEST_USER_HOME;

const skipReason = probeSshd({ createUser: true }) ?? undefined;
if (skipReason !== undefined) console.log(`[skip] ssh e2e: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('ssh e2e (real sshd on 127.0.0.1, real ssh)', () => {
  let sshd: ThrowawaySshd | undefined;
  let host: HookListener;
  let manager: RelayManager;
  const events: RelayedEvent[] = [];
  const connects: GuestHandle[] = [];
  const token = 'host-token-ssh';
  let target = '';

  beforeAll(async () => {
    sshd = await startThrowawaySshd();
    const { sshArgs } = sshd;
    target = sshd.target;
    await rm(join(USER_HOME, '.orca-guest'), { recursive: true, force: true });
    host = createHookListener({ token, port: 0, onEvent() {} });
    const hostPort = (await host.start()).port;
    manager = createRelayManager({
      spawners: [sshSpawner({ sshArgs })],
      bundle: guestBundle(),
      hostPort: () => hostPort,
      hostToken: () => token,
      instanceKey: 'sshe2e',
      // Why: the manager hands raw params on; the host's trust boundary is played here by acceptRelayed.
      ingest: (params, connectionId) => {
        const r = acceptRelayed(params, connectionId, { now: () => Date.now() });
        if (!('drop' in r)) events.push(r);
        return r;
      },
      onConnect: async (g) => {
        connects.push(g);
      },
    });
  });

  afterAll(async () => {
    manager?.disposeAll();
    await host?.stop();
    sshd?.stop();
  });

  it('installs over ssh, connects, and a POST on the remote loopback reaches ingest as ssh:<target>', async () => {
    const v = await manager.ensure('ssh', ` ${target.toUpperCase().replace('RELAYTEST', 'relaytest')} `);
    expect(v).toMatchObject({ phase: 'running', connectionId: `ssh:${target}` });
    const g = connects[0];
    if (g === undefined) throw new Error('no connect');
    expect(g.home).toBe(USER_HOME);
    expect(g.token).toMatch(/^[0-9a-f]{32}$/);
    expect(g.token).not.toBe(token);
    // The remote loopback is shared with the host here, so the relay falls back to a free port.
    const r = await run([
      'su',
      '-s',
      '/bin/sh',
      USER,
      '-c',
      curlHook(g.boundPort, g.token, 'claude', { paneKey: paneKey(7), payload: { x: 1 } })
        .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
        .join(' '),
    ]);
    expect(r.stdout).toBe('204');
    const e = await until('the ssh guest event of pane 7', () => events.find((x) => x.paneKey === paneKey(7)));
    expect(e).toMatchObject({ source: 'claude', connectionId: `ssh:${target}`, payload: { x: 1 } });
    expect(await g.fs.readFile(g.endpointPath)).toEqual({
      ok: true,
      content: expect.stringContaining(`ORCA_AGENT_HOOK_TOKEN=${g.token}\n`),
    });
  });

  it('the token is on no command line', async () => {
    const g = connects[0];
    const ps = await run(['ps', '-eo', 'args']);
    expect(ps.stdout).toContain('relay.cjs');
    expect(ps.stdout.includes(g?.token ?? 'x')).toBe(false);
    expect(ps.stdout.includes(token)).toBe(false);
  });

  it('closing the channel leaves no remote relay', async () => {
    manager.disposeAll();
    await until('remote relay exit', async () => (await run(['pgrep', '-u', USER, '-f', 'relay.cjs'])).code === 1, {
      timeoutMs: 10_000,
    });
    expect((await run(['pgrep', '-u', USER, '-f', 'relay.cjs'])).stdout).toBe('');
  });
});
