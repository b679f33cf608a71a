import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

/** The unprivileged login the ssh suites use (`.ci/run` creates it). */
export const SSH_TEST_USER = 'relaytest';
/** Its home: writable, because the relay install script writes under `$HOME`. */
export const SSH_TEST_USER_HOME = '/var/tmp/relaytest';

const LOGIN_WAIT_MS = 15_000;
const LOGIN_RETRY_MS = 100;

/**
 * Why an ssh suite cannot run here, or `null`: OpenSSH missing, not root, or the test user
 * absent. With `createUser`, a missing user is created the way `.ci/run` does.
 */
export function probeSshd({ createUser = false }: { createUser?: boolean } = {}): string | null {
  if (spawnSync('sh', ['-c', 'command -v /usr/sbin/sshd && command -v ssh && command -v ssh-keygen']).status !== 0) {
    return 'openssh-server/client not installed';
  }
  if (process.getuid?.() !== 0) return 'not root: cannot start sshd for the test user';
  if (spawnSync('id', [SSH_TEST_USER]).status !== 0) {
    if (!createUser) return `user ${SSH_TEST_USER} missing (.ci/run creates it)`;
    const made = spawnSync('sh', [
      '-c',
      `useradd -m -d ${SSH_TEST_USER_HOME} -s /bin/sh ${SSH_TEST_USER} && usermod -p '*' ${SSH_TEST_USER}`,
    ]);
    if (made.status !== 0) return `cannot create ${SSH_TEST_USER}: ${made.stderr.toString().trim()}`;
  }
  return null;
}

/** A running throwaway sshd on 127.0.0.1 that accepts only the test user's generated key. */
export interface ThrowawaySshd {
  port: number;
  /** `user@127.0.0.1:port`, the guest target form. */
  target: string;
  /** Client options (key, no host-key checks); add `-p port` yourself where the target has none. */
  sshArgs: string[];
  stop(): void;
}

/**
 * Generates host and client keys in a temp dir, starts `sshd -D` (owned and killed by the test)
 * and waits until the test user can log in. Call {@link probeSshd} first.
 */
export async function startThrowawaySshd(): Promise<ThrowawaySshd> {
  const dir = mkdtempSync(join(tmpdir(), 'orca-sshd-'));
  chmodSync(dir, 0o755);
  for (const key of ['hostkey', 'clientkey']) {
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, key)]);
  }
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
      // Why: the key files live under /tmp (mode 1777), which StrictModes refuses.
      'StrictModes no',
      'UsePAM no',
      `AllowUsers ${SSH_TEST_USER}`,
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true });
  const sshd: ChildProcess = spawn(
    '/usr/sbin/sshd',
    ['-D', '-f', join(dir, 'sshd_config'), '-E', join(dir, 'sshd.log')],
    {
      stdio: 'ignore',
    },
  );
  const stop = () => {
    sshd.kill();
    rmSync(dir, { recursive: true, force: true });
  };
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
  const login = [...sshArgs, '-T', '-o', 'BatchMode=yes', '-p', String(port), `${SSH_TEST_USER}@127.0.0.1`, 'true'];
  const deadline = Date.now() + LOGIN_WAIT_MS;
  while (spawnSync('ssh', login).status !== 0) {
    if (Date.now() > deadline) {
      stop();
      throw new Error(`throwaway sshd on 127.0.0.1:${port} refused ${SSH_TEST_USER} for ${LOGIN_WAIT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, LOGIN_RETRY_MS));
  }
  return { port, target: `${SSH_TEST_USER}@127.0.0.1:${port}`, sshArgs, stop };
}
