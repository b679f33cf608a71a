import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestBundle } from '../src/guest/bundle.ts';
import { createHookListener, type HookListener } from '../src/listener/hook-listener.ts';
import type { RelayedEvent } from '../src/listener/types.ts';
import { createRelayManager, type RelayManager } from '../src/manager/relay-manager.ts';
import { sshSpawner } from '../src/manager/spawners.ts';
import type { GuestHandle } from '../src/manager/types.ts';
import { paneKey } from './helpers/fixtures.ts';
import { curlHook, run, waitFor } from './helpers/proc.ts';

const USER = 'relaytest';
const USER_HOME = '/var/tmp/relaytest';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return typeof a === 'object' && a !== null ? a.port : 0;
}

/** Probe and prepare: sshd binary, root, the test user (created as .ci/run does). */
async function prepare(): Promise<string | undefined> {
  if ((await run(['sh', '-c', 'command -v /usr/sbin/sshd && command -v ssh && command -v ssh-keygen'])).code !== 0)
    return 'openssh-server/client not installed';
  if (process.getuid?.() !== 0) return 'not root: cannot create the relaytest user or start sshd';
  if ((await run(['id', USER])).code !== 0) {
    const r = await run(['sh', '-c', `useradd -m -d ${USER_HOME} -s /bin/sh ${USER} && usermod -p '*' ${USER}`]);
    if (r.code !== 0) return `cannot create ${USER}: ${r.stderr.trim()}`;
  }
  await run(['mkdir', '-p', '/run/sshd']);
  return undefined;
}

const skipReason = await prepare();
if (skipReason !== undefined) console.log(`[skip] ssh e2e: ${skipReason}`);

describe.skipIf(skipReason !== undefined)('ssh e2e (real sshd on 127.0.0.1, real ssh)', () => {
  let dir = '';
  let sshdPort = 0;
  let sshd: ChildProcess | undefined;
  let host: HookListener;
  let manager: RelayManager;
  const events: RelayedEvent[] = [];
  const connects: GuestHandle[] = [];
  const token = 'host-token-ssh';
  let target = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orca-sshd-'));
    await chmod(dir, 0o755);
    await run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'hostkey')]);
    await run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'clientkey')]);
    await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'clientkey.pub')));
    await chmod(join(dir, 'authorized_keys'), 0o644);
    sshdPort = await freePort();
    await writeFile(
      join(dir, 'sshd_config'),
      [
        `Port ${sshdPort}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${join(dir, 'hostkey')}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PasswordAuthentication no',
        'StrictModes no',
        'UsePAM no',
        `AllowUsers ${USER}`,
        '',
      ].join('\n'),
    );
    // -D: stay in the foreground so the test owns (and kills) the daemon by pid.
    sshd = spawn('/usr/sbin/sshd', ['-D', '-f', join(dir, 'sshd_config'), '-E', join(dir, 'sshd.log')], {
      stdio: 'ignore',
    });
    const sshArgs = [
      '-i',
      join(dir, 'clientkey'),
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
    ];
    target = `${USER}@127.0.0.1:${sshdPort}`;
    await waitFor(
      async () =>
        (
          await run([
            'ssh',
            '-T',
            '-o',
            'BatchMode=yes',
            ...sshArgs,
            '-p',
            String(sshdPort),
            `${USER}@127.0.0.1`,
            'true',
          ])
        ).code === 0
          ? true
          : undefined,
      15_000,
      'sshd',
    );
    await rm(join(USER_HOME, '.orca-guest'), { recursive: true, force: true });
    host = createHookListener({ token, port: 0, onEvent() {} });
    const hostPort = (await host.start()).port;
    manager = createRelayManager({
      spawners: [sshSpawner({ sshArgs })],
      bundle: guestBundle(),
      hostPort: () => hostPort,
      hostToken: () => token,
      instanceKey: 'sshe2e',
      ingest: (e) => events.push(e),
      onConnect: async (g) => {
        connects.push(g);
      },
    });
  });

  afterAll(async () => {
    manager?.disposeAll();
    await host?.stop();
    sshd?.kill();
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
    const e = await waitFor(() => events.find((x) => x.paneKey === paneKey(7)));
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
    await waitFor(
      async () => ((await run(['pgrep', '-u', USER, '-f', 'relay.cjs'])).code === 1 ? true : undefined),
      10_000,
      'remote relay exit',
    );
    expect((await run(['pgrep', '-u', USER, '-f', 'relay.cjs'])).stdout).toBe('');
  });
});
