import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths, ensureDataDir, resolveDataDir } from './data-dir.ts';

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
    for (const dir of [paths.root, paths.agentHooksDir, paths.spoolDir, paths.logsDir]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(paths.endpointEnv).toBe(join(root, 'agent-hooks', 'endpoint.env'));
    expect(paths.socket).toBe(join(root, 'runtime.sock'));
  });
});
