import { chmodSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from './store.ts';

let savedUmask: number | undefined;
afterEach(() => {
  if (savedUmask !== undefined) process.umask(savedUmask);
  savedUmask = undefined;
});

describe('store files', () => {
  it('orca.sqlite, -wal and -shm are 0600 even under umask 000', () => {
    savedUmask = process.umask(0o000);
    const path = join(mkdtempSync(join(tmpdir(), 'orca-store-mode-')), 'orca.sqlite');
    const store = openStore(path);
    store.insertPane({
      handle: 'p1',
      paneKey: 'tab1:1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      tabId: 'tab1',
      name: null,
      cwd: '/',
      argv: ['sh'],
      guest: null,
      agent: null,
      createdAt: 1,
    });
    const modes = Object.fromEntries(
      ['', '-wal', '-shm'].map((suffix) => [
        `orca.sqlite${suffix}`,
        existsSync(`${path}${suffix}`) ? (statSync(`${path}${suffix}`).mode & 0o777).toString(8) : 'missing',
      ]),
    );
    store.close();
    expect(modes).toEqual({ 'orca.sqlite': '600', 'orca.sqlite-wal': '600', 'orca.sqlite-shm': '600' });
  });

  it('an existing store with loose modes is tightened at open', () => {
    savedUmask = process.umask(0o000);
    const path = join(mkdtempSync(join(tmpdir(), 'orca-store-mode-')), 'orca.sqlite');
    openStore(path).close();
    process.umask(savedUmask);
    savedUmask = undefined;
    // a store written by an older host with a loose umask
    chmodSync(path, 0o644);
    const store = openStore(path);
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    store.close();
  });
});
