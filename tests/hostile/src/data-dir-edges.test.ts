import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRuntimeInfo } from '@orca/host';
import { afterEach, describe, expect, it } from 'vitest';
import { canUnshareMount, orcaArgv, spawnCollect } from './data-dir-edges-cli.ts';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** A data-dir path whose `runtime.sock` would not fit in a Unix socket address (108 bytes). */
function longDataDir(): string {
  return join(tempRoot(), 'd'.repeat(60), 'e'.repeat(60), 'data');
}

describe('attack: data-dir edge cases', () => {
  it('a data dir too long for a Unix socket: the socket goes to a short 0700 runtime dir and clients find it', async () => {
    const dataDir = longDataDir();
    const runtimeDir = tempRoot('orca-rt-');
    host = await startHostileHost(dataDir, [], { env: { XDG_RUNTIME_DIR: runtimeDir } });
    const socket = host.ready.socket;
    expect(Buffer.byteLength(join(dataDir, 'runtime.sock'))).toBeGreaterThan(107);
    expect(Buffer.byteLength(socket)).toBeLessThanOrEqual(107);
    expect(socket.startsWith(join(runtimeDir, 'orca-'))).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(socket, '..')).mode & 0o777).toBe(0o700);
    expect(readRuntimeInfo(join(dataDir, 'runtime.json'))?.socket).toBe(socket);
    const ls = await runOrca(['--json', '--data-dir', dataDir, 'ls']);
    expect({ code: ls.code, out: ls.stdout.trim() }).toEqual({ code: 0, out: '{"panes":[]}' });
    expect(await host.stop()).toBe(0);
    host = undefined;
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
  });

  it('no short runtime dir either: refused up front with a clear error, nothing left listening or behind', async () => {
    const dataDir = longDataDir();
    const runtimeDir = join(tempRoot('orca-rt-'), 'r'.repeat(120));
    mkdirSync(runtimeDir, { recursive: true });
    const r = await runOrca(['--data-dir', dataDir, 'start'], { env: { XDG_RUNTIME_DIR: runtimeDir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^orca: ORCA_HOST_DATA_DIR: the runtime socket path .*runtime\.sock is \d+ bytes/m);
    expect(r.stderr).toMatch(/shorter --data-dir/);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'runtime.sock'))).toBe(false);
  });

  it('a data dir owned by another user is refused and left unchanged', async () => {
    // Why: we run as root here, so "another user" is a directory chowned to an unused uid; as a
    // non-root user, a root-owned directory (/) stands in for it.
    const isRoot = process.getuid?.() === 0;
    let dataDir = '/';
    if (isRoot) {
      dataDir = join(tempRoot(), 'theirs');
      mkdirSync(dataDir, { mode: 0o755 });
      chownSync(dataDir, 54_321, 54_321);
    }
    console.log(`owner check: running as uid ${process.getuid?.()}, data dir ${dataDir} owned by uid ${statSync(dataDir).uid}`);
    const modeBefore = statSync(dataDir).mode & 0o777;
    const r = await runOrca(['--data-dir', dataDir, 'start']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`orca: ORCA_HOST_DATA_DIR: the data directory ${dataDir} is owned by uid ${statSync(dataDir).uid}`);
    expect(r.stderr).toMatch(/use a directory you own/);
    expect(statSync(dataDir).mode & 0o777).toBe(modeBefore);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'agent-hooks'))).toBe(false);
  });

  it('a read-only orca.sqlite: start fails naming the file and what to do, and leaves no runtime.json', async () => {
    expect(canUnshareMount()).toBe(true);
    const dataDir = join(tempRoot(), 'data');
    host = await startHostileHost(dataDir);
    expect(await host.stop()).toBe(0);
    host = undefined;
    const store = join(dataDir, 'orca.sqlite');
    const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"';
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', store, ...orcaArgv(['--data-dir', dataDir, 'start'])], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^orca: ORCA_HOST_STORE: cannot write the store ${store}: .*readonly.*`, 'm'));
    expect(r.stderr).toMatch(/make it writable/);
    expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
  });

  it('SIGTERM after the data dir became read-only: the host exits and leaves no live runtime.json', async () => {
    expect(canUnshareMount()).toBe(true);
    const dataDir = join(tempRoot(), 'data');
    let readyPid = 0;
    const { child, done } = spawnCollect(['unshare', '-rm', ...orcaArgv(['--json', '--data-dir', dataDir, 'start'])], {
      onStdout: (all) => {
        const line = all.split('\n').find((l) => l.startsWith('{"ready"'));
        if (line) readyPid = (JSON.parse(line) as { ready: { pid: number } }).ready.pid;
      },
    });
    for (let i = 0; i < 300 && readyPid === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(readyPid).toBeGreaterThan(0);
    const ro = spawnSync(
      'nsenter',
      ['-t', String(readyPid), '-U', '-m', '--preserve-credentials', 'sh', '-c', 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && touch "$1/x"', 'sh', dataDir],
      { encoding: 'utf8' },
    );
    expect(ro.stderr).toMatch(/Read-only file system/);
    expect(readRuntimeInfo(join(dataDir, 'runtime.json'))?.pid).toBe(readyPid);
    child.kill('SIGTERM');
    const exit = await done;
    console.log(`read-only dir SIGTERM: exit ${exit.code}; stderr ${JSON.stringify(exit.stderr.slice(0, 300))}`);
    expect(exit.code).toBe(0);
    expect(readRuntimeInfo(join(dataDir, 'runtime.json'))).toBeNull();
    // the next start takes over at once
    host = await startHostileHost(dataDir);
    expect(host.ready.pid).toBeGreaterThan(0);
    writeFileSync(join(tempRoot(), 'unused'), readFileSync(join(dataDir, 'runtime.json')));
  });
});
