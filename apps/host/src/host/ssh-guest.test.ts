import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host, type VerdictChange } from './host.ts';
import { silentLogger } from './logger.ts';

const USER = 'relaytest';

function skipReason(): string | null {
  try {
    guestBundle();
  } catch (error) {
    return `relay guest bundle not built (${(error as Error).message})`;
  }
  if (spawnSync('sh', ['-c', 'command -v /usr/sbin/sshd && command -v ssh && command -v ssh-keygen']).status !== 0) {
    return 'openssh-server/client not installed';
  }
  if (process.getuid?.() !== 0) return 'not root: cannot start sshd for the test user';
  if (spawnSync('id', [USER]).status !== 0) return `user ${USER} missing (.ci/run creates it)`;
  return null;
}
const reason = skipReason();
if (reason) console.log(`skipping ssh guest e2e: ${reason}`);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return typeof a === 'object' && a !== null ? a.port : 0;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(reason !== null)('ssh guest (real sshd on 127.0.0.1, real ssh, relay, generated hook script)', () => {
  it('a hook fired in a guest pane over ssh -tt reaches the host as ssh:<target>', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-host-sshd-'));
    chmodSync(dir, 0o755);
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'hostkey')]);
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'clientkey')]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'clientkey.pub')));
    chmodSync(join(dir, 'authorized_keys'), 0o644);
    const port = await freePort();
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        `Port ${port}`,
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
    spawnSync('mkdir', ['-p', '/run/sshd']);
    const sshd: ChildProcess = spawn(
      '/usr/sbin/sshd',
      ['-D', '-f', join(dir, 'sshd_config'), '-E', join(dir, 'sshd.log')],
      {
        stdio: 'ignore',
      },
    );
    cleanups.push(() => {
      sshd.kill();
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
    for (let i = 0; i < 100; i += 1) {
      const probe = spawnSync('ssh', [
        ...sshArgs,
        '-o',
        'BatchMode=yes',
        '-p',
        String(port),
        `${USER}@127.0.0.1`,
        'true',
      ]);
      if (probe.status === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const root = mkdtempSync(join(tmpdir(), 'orca-ssh-guest-'));
    const host: Host = await createHost({ dataDir: join(root, 'data'), logger: silentLogger(), home: root });
    cleanups.push(() => host.stop());
    const target = `${USER}@127.0.0.1:${port}`;
    const guest = await host.guests.add('ssh', 's1', { target, sshArgs, agents: ['claude'] });
    expect(guest).toMatchObject({ name: 's1', kind: 'ssh', connectionId: `ssh:${target}`, phase: 'running' });

    const script = `printf '%s' '{"hook_event_name":"UserPromptSubmit","session_id":"s"}' | /bin/sh "$HOME/.orca/agent-hooks/claude-hook.sh" >/dev/null; exec sleep 60`;
    const pane = host.createPane({ argv: ['sh', '-c', script], guest: 's1', cwd: '/' });
    await new Promise<VerdictChange>((resolve) => {
      const off = host.onVerdict((c) => {
        if (c.handle === pane.handle && c.verdict.status === 'working') {
          off();
          resolve(c);
        }
      });
    });
    expect(host.store.hookRows(pane.paneKey)).toMatchObject([
      { connectionId: `ssh:${target}`, hookEventName: 'UserPromptSubmit' },
    ]);
  }, 90_000);
});
