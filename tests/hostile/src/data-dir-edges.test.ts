import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { readRuntimeInfo } from '@orca/host';
import { afterEach, describe, expect, it } from 'vitest';
import {
  killAllTracked,
  orcaArgv,
  runTracked,
  startTracked,
  stopTracked,
  userNamespaceSupport,
} from './data-dir-edges-cli.ts';
import { tempRoot } from './real-host.ts';

// Why: every process a test starts (tsx wrapper, the host it runs, unshare) is in a tracked
// process group; whatever a failed assertion left running is killed here.
afterEach(async () => {
  await killAllTracked();
});

const userns = userNamespaceSupport();
if (!userns.ok) console.log(`data-dir edges: read-only cases skipped: ${userns.reason}`);

/** A data-dir path whose `runtime.sock` would not fit in a Unix socket address (108 bytes). */
function longDataDir(): string {
  return join(tempRoot(), 'd'.repeat(60), 'e'.repeat(60), 'data');
}

const TEST_MS = 90_000;

describe('attack: data-dir edge cases', () => {
  it(
    'a data dir too long for a Unix socket: the socket goes to a short 0700 runtime dir and clients find it',
    async () => {
      const dataDir = longDataDir();
      const runtimeDir = tempRoot('orca-rt-');
      const env = { XDG_RUNTIME_DIR: runtimeDir };
      const { host, ready } = await startTracked(dataDir, { env });
      expect(ready, host.stderr()).not.toBeNull();
      const socket = ready?.socket as string;
      expect(Buffer.byteLength(join(dataDir, 'runtime.sock'))).toBeGreaterThan(107);
      expect(Buffer.byteLength(socket)).toBeLessThanOrEqual(107);
      expect(socket.startsWith(join(runtimeDir, 'orca-'))).toBe(true);
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
      expect(statSync(dirname(socket)).uid).toBe(process.getuid?.());
      expect(readRuntimeInfo(join(dataDir, 'runtime.json'))?.socket).toBe(socket);
      expect(existsSync(join(dataDir, 'runtime.sock'))).toBe(false);
      // a client with a different XDG_RUNTIME_DIR still finds the socket through runtime.json
      const ls = await runTracked(orcaArgv(['--json', '--data-dir', dataDir, 'ls']), { env: { XDG_RUNTIME_DIR: '' } });
      expect({ code: ls.code, out: ls.stdout.trim() }).toEqual({ code: 0, out: '{"panes":[]}' });
      expect((await stopTracked(host)).code).toBe(0);
      expect(existsSync(socket)).toBe(false);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    },
    TEST_MS,
  );

  it(
    'no short runtime dir either: refused up front with a clear error, nothing left listening or behind',
    async () => {
      const dataDir = longDataDir();
      const runtimeDir = join(tempRoot('orca-rt-'), 'r'.repeat(120));
      mkdirSync(runtimeDir, { recursive: true });
      const r = await runTracked(orcaArgv(['--data-dir', dataDir, 'start']), {
        env: { XDG_RUNTIME_DIR: runtimeDir },
        timeoutMs: 20_000,
      });
      expect({ code: r.code, timedOut: r.timedOut }, r.stderr).toEqual({ code: 1, timedOut: false });
      expect(r.stderr).toMatch(/^orca: ORCA_HOST_DATA_DIR: the runtime socket path .*runtime\.sock is \d+ bytes/m);
      expect(r.stderr).toMatch(/shorter --data-dir/);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'runtime.sock'))).toBe(false);
      expect(existsSync(join(runtimeDir, `orca-${process.getuid?.()}`))).toBe(false);
    },
    TEST_MS,
  );

  it(
    'a data dir owned by another user is refused and left unchanged',
    async () => {
      // Why: as root, "another user" is a directory chowned to an unused uid; as a non-root user,
      // a root-owned directory (/) stands in for it.
      const isRoot = process.getuid?.() === 0;
      let dataDir = '/';
      if (isRoot) {
        dataDir = join(tempRoot(), 'theirs');
        mkdirSync(dataDir, { mode: 0o755 });
        chownSync(dataDir, 54_321, 54_321);
      }
      const owner = statSync(dataDir).uid;
      console.log(`owner check: running as uid ${process.getuid?.()}, data dir ${dataDir} owned by uid ${owner}`);
      const modeBefore = statSync(dataDir).mode & 0o777;
      const r = await runTracked(orcaArgv(['--data-dir', dataDir, 'start']), { timeoutMs: 20_000 });
      expect({ code: r.code, timedOut: r.timedOut }, r.stderr).toEqual({ code: 1, timedOut: false });
      expect(r.stderr).toContain(`orca: ORCA_HOST_DATA_DIR: the data directory ${dataDir} is owned by uid ${owner}`);
      expect(r.stderr).toMatch(/use a directory you own/);
      expect(statSync(dataDir).mode & 0o777).toBe(modeBefore);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'agent-hooks'))).toBe(false);
    },
    TEST_MS,
  );

  it(
    'a --listen port already taken: start refuses at once with one line, leaving no socket, runtime.json or process',
    async () => {
      const busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      try {
        const port = (busy.address() as { port: number }).port;
        const dataDir = join(tempRoot(), 'data');
        const r = await runTracked(orcaArgv(['--data-dir', dataDir, 'start', '--listen', `127.0.0.1:${port}`]), {
          timeoutMs: 20_000,
        });
        expect({ code: r.code, timedOut: r.timedOut }, r.stderr).toEqual({ code: 1, timedOut: false });
        expect(r.stderr.trim()).toMatch(
          new RegExp(
            `^orca: ORCA_HOST_LISTEN: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE.*pick another --listen port[^\\n]*$`,
          ),
        );
        expect(readdirSync(dataDir).filter((f) => /^runtime/.test(f))).toEqual([]);
      } finally {
        busy.close();
      }
    },
    TEST_MS,
  );

  it.skipIf(!userns.ok)(
    'a read-only orca.sqlite: start fails naming the file and what to do, and leaves no runtime.json',
    async () => {
      const dataDir = join(tempRoot(), 'data');
      const first = await startTracked(dataDir);
      expect(first.ready, first.host.stderr()).not.toBeNull();
      expect((await stopTracked(first.host)).code).toBe(0);
      const store = join(dataDir, 'orca.sqlite');
      const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"';
      const r = await runTracked(
        ['unshare', '-rm', 'sh', '-c', script, 'sh', store, ...orcaArgv(['--data-dir', dataDir, 'start'])],
        { timeoutMs: 20_000 },
      );
      expect({ code: r.code, timedOut: r.timedOut }, r.stderr).toEqual({ code: 1, timedOut: false });
      expect(r.stderr).toMatch(
        new RegExp(`^orca: ORCA_HOST_STORE: cannot write the store ${store}: .*readonly.*`, 'm'),
      );
      expect(r.stderr).toMatch(/make it writable/);
      expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    },
    TEST_MS,
  );

  it.skipIf(!userns.ok)(
    'SIGTERM after the data dir became read-only: the host exits and leaves no live runtime.json',
    async () => {
      const dataDir = join(tempRoot(), 'data');
      const { host, ready } = await startTracked(dataDir, { argvPrefix: ['unshare', '-rm'] });
      expect(ready, host.stderr()).not.toBeNull();
      const pid = ready?.pid as number;
      const ro = spawnSync(
        'nsenter',
        [
          '-t',
          String(pid),
          '-U',
          '-m',
          '--preserve-credentials',
          'sh',
          '-c',
          'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && touch "$1/x"',
          'sh',
          dataDir,
        ],
        { encoding: 'utf8', timeout: 10_000 },
      );
      expect(ro.stderr).toMatch(/Read-only file system/);
      expect(readRuntimeInfo(join(dataDir, 'runtime.json'))?.pid).toBe(pid);
      const exit = await stopTracked(host);
      console.log(`read-only dir SIGTERM: exit ${exit.code}; stderr ${JSON.stringify(exit.stderr.slice(0, 300))}`);
      expect({ code: exit.code, timedOut: exit.timedOut }).toEqual({ code: 0, timedOut: false });
      expect(readRuntimeInfo(join(dataDir, 'runtime.json'))).toBeNull();
      // the next start takes over at once
      const next = await startTracked(dataDir);
      expect(next.ready?.pid, next.host.stderr()).toBeGreaterThan(0);
      expect(readRuntimeInfo(join(dataDir, 'runtime.json'))?.pid).toBe(next.ready?.pid);
      expect((await stopTracked(next.host)).code).toBe(0);
    },
    TEST_MS,
  );
});
