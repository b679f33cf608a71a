import { chownSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostError } from '../errors.ts';
import { dataPaths, ensureDataDir, resolveDataDir } from './data-dir.ts';
import { ensureRuntimeDir, planSocketPath } from './socket-path.ts';

describe('resolveDataDir', () => {
  it('prefers the flag, then ORCA_DATA_DIR, then XDG_DATA_HOME, then the home default', () => {
    const env = { ORCA_DATA_DIR: '/env/orca', XDG_DATA_HOME: '/xdg' };
    expect(resolveDataDir({ flag: '/flag', env, home: '/h', platform: 'linux' })).toBe('/flag');
    expect(resolveDataDir({ flag: '  ', env, home: '/h', platform: 'linux' })).toBe('/env/orca');
    expect(resolveDataDir({ env: { XDG_DATA_HOME: '/xdg' }, home: '/h', platform: 'linux' })).toBe('/xdg/orca');
    expect(resolveDataDir({ env: {}, home: '/h', platform: 'linux' })).toBe('/h/.local/share/orca');
    expect(resolveDataDir({ env: {}, home: '/h', platform: 'darwin' })).toBe('/h/Library/Application Support/orca');
  });
});

describe('ensureDataDir', () => {
  it('creates the layout with 0700 directories, tightening a looser existing one', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'orca-dd-')), 'data');
    const paths = ensureDataDir(root);
    expect(paths).toEqual(dataPaths(root));
    for (const dir of [paths.root, paths.agentHooksDir, paths.spoolDir, paths.logsDir, paths.keeperDir]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(paths.endpointEnv).toBe(join(root, 'agent-hooks', 'endpoint.env'));
    expect(paths.socket).toBe(join(root, 'runtime.sock'));
  });
});

describe('socket path and ownership checks', () => {
  const uid = process.getuid?.() ?? 0;

  it('keeps a short socket in the data dir, moves a long one to <runtime dir>/orca-<uid>/, refuses when neither fits', () => {
    expect(planSocketPath('/d', '/d/runtime.sock', {})).toEqual({ socket: '/d/runtime.sock', runtimeDir: null });
    const long = `/${'x'.repeat(120)}`;
    const moved = planSocketPath(long, `${long}/runtime.sock`, { XDG_RUNTIME_DIR: '/run/user/7' });
    expect(moved.runtimeDir).toBe(`/run/user/7/orca-${uid}`);
    expect(moved.socket).toMatch(new RegExp(`^/run/user/7/orca-${uid}/[0-9a-f]{16}\\.sock$`));
    expect(planSocketPath(long, `${long}/runtime.sock`, {}).runtimeDir).toBe(`/tmp/orca-${uid}`);
    expect(planSocketPath(`${long}2`, `${long}2/runtime.sock`, {}).socket).not.toBe(
      planSocketPath(long, `${long}/runtime.sock`, {}).socket,
    );
    let caught: unknown;
    try {
      planSocketPath(long, `${long}/runtime.sock`, { XDG_RUNTIME_DIR: long });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HostError);
    expect((caught as HostError).code).toBe('ORCA_HOST_DATA_DIR');
    expect((caught as HostError).message).toMatch(/runtime\.sock is 134 bytes, more than the \d+ .*shorter --data-dir/);
  });

  it('refuses a symlinked sub-directory or runtime dir and creates the runtime dir 0700', () => {
    const base = mkdtempSync(join(tmpdir(), 'orca-dd-'));
    const root = join(base, 'data');
    mkdirSync(root);
    symlinkSync(base, join(root, 'logs'));
    expect(() => ensureDataDir(root)).toThrow(/the directory .*logs is not a directory \(a symlink\)/);
    const root2 = join(base, 'data2');
    mkdirSync(root2);
    symlinkSync(base, join(root2, 'keeper'));
    expect(() => ensureDataDir(root2)).toThrow(/the directory .*keeper is not a directory \(a symlink\)/);
    symlinkSync(base, join(base, 'rt'));
    expect(() => ensureRuntimeDir(join(base, 'rt'))).toThrow(/the runtime directory .*rt is not a directory/);
    ensureRuntimeDir(join(base, 'rt2'));
    expect(statSync(join(base, 'rt2')).mode & 0o777).toBe(0o700);
  });

  it.skipIf(uid !== 0)('refuses a data dir or runtime dir owned by another uid, changing nothing (root only)', () => {
    const base = mkdtempSync(join(tmpdir(), 'orca-dd-'));
    for (const dir of ['data', 'rt']) {
      mkdirSync(join(base, dir), { mode: 0o755 });
      chownSync(join(base, dir), 54_321, 54_321);
    }
    expect(() => ensureDataDir(join(base, 'data'))).toThrow(
      /owned by uid 54321, not by you \(uid 0\); use a directory you own/,
    );
    expect(() => ensureRuntimeDir(join(base, 'rt'))).toThrow(/owned by uid 54321/);
    expect(statSync(join(base, 'rt')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(base, 'data'))).toEqual([]);
  });
});
