import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connectRuntime } from '@orca/host';
import { endKeeper, until } from '@orca/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { extractOldHost, previousHostRelease, REPO_ROOT } from './old-host.ts';

const require = createRequire(import.meta.url);
const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
const CLI_ENTRY = join(REPO_ROOT, 'apps', 'host', 'src', 'cli.ts');
const release = previousHostRelease();
if (!release) console.log('no released @orca/host in this history (shallow clone? git fetch --unshallow)');

const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-old-host-')), 'data');
afterAll(async () => {
  spawnSync(
    process.execPath,
    [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--data-dir', dataDir, 'stop', '--all'],
    {
      timeout: 60_000,
    },
  );
  await endKeeper(dataDir);
});

function startHost(entry: string): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [TSX_CLI, '--conditions=orca-source', entry, '--json', '--data-dir', dataDir, 'start'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ pid: (JSON.parse(line) as { ready: { pid: number } }).ready.pid });
    });
    child.on('exit', (code) => reject(new Error(`orca start exited ${code}: ${err}`)));
  });
}

describe.skipIf(!release)(
  `a host of the previous release (${release?.version ?? 'none'}) on a data dir whose agents the PTY keeper holds`,
  () => {
    it('refuses to start, naming the keeper, and leaves the agents running; today’s host then takes them over', async () => {
      const old = extractOldHost(release?.commit as string);
      // Today's host starts a pane in its keeper and stops; the agent keeps running.
      const first = await startHost(CLI_ENTRY);
      const client = await connectRuntime(dataDir);
      const pane = await client.call('terminal.create', {
        argv: ['/bin/sh', '-c', 'echo kept; sleep 600'],
        cwd: '/',
      });
      client.close();
      process.kill(first.pid, 'SIGTERM');
      const keeperHeld = await until('the keeper holding runtime.json', () => {
        try {
          const info = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as {
            pid: number;
            keeper?: boolean;
          };
          return info.keeper === true ? info : undefined;
        } catch {
          return undefined;
        }
      });
      // The previous release does not know the keeper: it must not start and write the agents off.
      const refused = spawnSync(
        process.execPath,
        [TSX_CLI, '--conditions=orca-source', old, '--data-dir', dataDir, 'start'],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(refused.status).toBe(1);
      // Its own words (today's host would name the keeper): the old build really ran.
      expect(refused.stderr).toMatch(
        new RegExp(`ORCA_HOST_ALREADY_RUNNING: a host is already running on .* \\(pid ${keeperHeld.pid}\\)`),
      );
      expect(() => process.kill(pane.pid as number, 0)).not.toThrow();
      // Today's host attaches and takes the pane over: same pid, still running.
      const second = await startHost(CLI_ENTRY);
      const again = await connectRuntime(dataDir);
      // Why: under load the screen worker may not answer a read at once (the view then shows the
      // last settled mirror); the rebuilt screen is asked for until it is drawn.
      const view = await until('the taken-over screen drawn', async () => {
        const v = await again.call('terminal.show', { handle: pane.handle });
        return (v.tail ?? '').includes('kept') ? v : undefined;
      });
      again.close();
      expect(view).toMatchObject({ pid: pane.pid, kept: true });
      expect(view.exited).toBeUndefined();
      expect(view.tail).toContain('kept');
      process.kill(second.pid, 'SIGTERM');
    }, 180_000);
  },
);
