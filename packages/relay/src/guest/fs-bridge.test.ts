import { mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FS_BRIDGE_MAX_FRAME_BYTES } from '../constants.ts';
import { createFsBridge } from './fs-bridge.ts';

let base = '';
let home = '';
let bridge: ReturnType<typeof createFsBridge>;
const call = (verb: string, params: unknown) => {
  const fn = bridge[`guestfs.${verb}`];
  if (fn === undefined) throw new Error(verb);
  return fn(params);
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'orca-fsb-'));
  home = join(base, 'home');
  await mkdir(join(home, 'inner'), { recursive: true });
  await mkdir(join(base, 'home2'));
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret'), 'secret');
  await writeFile(join(home, 'inner', 'a.txt'), 'hello');
  await symlink(join(base, 'outside', 'secret'), join(home, 'esc-file'));
  await symlink(join(base, 'outside'), join(home, 'esc-dir'));
  await symlink(join(home, 'inner', 'a.txt'), join(home, 'inner-link'));
  bridge = createFsBridge({ home, homeInfo: () => ({ extra: 1 }) });
});

const verbs: [string, (p: string) => Record<string, unknown>][] = [
  ['readFile', (path) => ({ path })],
  ['writeFile', (path) => ({ path, content: 'x' })],
  ['stat', (path) => ({ path })],
  ['unlink', (path) => ({ path })],
  ['mkdir', (path) => ({ path })],
  ['chmod', (path) => ({ path, mode: 0o600 })],
  ['readdir', (path) => ({ path })],
  ['rename', (path) => ({ src: path, dst: path })],
];

describe('fs bridge scope', () => {
  for (const [verb, mk] of verbs) {
    it(`${verb}: outside, .., prefix sibling, relative, empty, non-string, bad params → data results`, async () => {
      const cases: [unknown, string][] = [
        [mk(join(base, 'outside', 'secret')), 'EACCES'],
        [mk(`${home}/../outside/secret`), 'EACCES'],
        [mk(join(base, 'home2', 'x')), 'EACCES'],
        [mk('inner/a.txt'), 'EACCES'],
        [mk(''), 'EINVAL'],
        [verb === 'rename' ? { src: 5, dst: 5 } : { path: 5 }, 'EINVAL'],
        [[1], 'EINVAL'],
        [null, 'EINVAL'],
      ];
      for (const [params, errno] of cases) {
        if (
          verb === 'readdir' &&
          errno === 'EACCES' &&
          typeof params === 'object' &&
          params !== null &&
          'path' in params &&
          String(params.path).includes('..')
        )
          continue;
        expect(await call(verb, params)).toMatchObject({ ok: false, errno });
      }
    });
  }
  it('escaping symlinks (file, dir) are refused by realpath for link-following verbs', async () => {
    for (const v of ['readFile', 'writeFile', 'stat', 'chmod']) {
      expect(await call(v, { path: join(home, 'esc-file'), content: 'x', mode: 0o600 })).toMatchObject({
        ok: false,
        errno: 'EACCES',
      });
      expect(await call(v, { path: join(home, 'esc-dir', 'secret'), content: 'x', mode: 0o600 })).toMatchObject({
        ok: false,
        errno: 'EACCES',
      });
    }
    expect(await call('readdir', { path: join(home, 'esc-dir') })).toMatchObject({ ok: false, errno: 'EACCES' });
    expect(await call('writeFile', { path: join(home, 'esc-dir', 'new'), content: 'x' })).toMatchObject({
      ok: false,
      errno: 'EACCES',
    });
    expect(await call('mkdir', { path: join(home, 'esc-dir', 'newdir') })).toMatchObject({
      ok: false,
      errno: 'EACCES',
    });
    expect(await readFile(join(base, 'outside', 'secret'), 'utf8')).toBe('secret');
  });
  it('inner symlinks work; unlink of a link removes the link only', async () => {
    expect(await call('readFile', { path: join(home, 'inner-link') })).toEqual({ ok: true, content: 'hello' });
    expect(await call('stat', { path: join(home, 'inner-link') })).toMatchObject({ ok: true, type: 'link' });
    expect(await call('unlink', { path: join(home, 'esc-file') })).toEqual({ ok: true });
    expect(await readFile(join(base, 'outside', 'secret'), 'utf8')).toBe('secret');
  });
  it('every verb works inside home', async () => {
    expect(await call('home', undefined)).toEqual({ ok: true, home, extra: 1 });
    expect(await call('mkdir', { path: join(home, 'd') })).toEqual({ ok: true });
    expect(await call('mkdir', { path: join(home, 'x', 'y') })).toMatchObject({ ok: false, errno: 'ENOENT' });
    expect(await call('writeFile', { path: join(home, 'd', 'f'), content: 'c', mode: 0o640 })).toEqual({ ok: true });
    expect((await stat(join(home, 'd', 'f'))).mode & 0o777).toBe(0o640);
    expect(await call('writeFile', { path: join(home, 'd', 'g'), content: 'c', mode: 'bad' })).toEqual({ ok: true });
    expect(await call('chmod', { path: join(home, 'd', 'f'), mode: '384' })).toEqual({ ok: true });
    expect((await stat(join(home, 'd', 'f'))).mode & 0o777).toBe(0o600);
    expect(await call('chmod', { path: join(home, 'd', 'f'), mode: 'x' })).toMatchObject({
      ok: false,
      errno: 'EINVAL',
    });
    expect(await call('chmod', { path: join(home, 'd', 'f'), mode: 0o10000 })).toMatchObject({
      ok: false,
      errno: 'EINVAL',
    });
    expect(await call('stat', { path: join(home, 'd', 'f') })).toMatchObject({ ok: true, size: 1, type: 'file' });
    expect(await call('rename', { src: join(home, 'd', 'f'), dst: join(home, 'd', 'g') })).toEqual({ ok: true });
    expect(await call('readFile', { path: join(home, 'd', 'g') })).toEqual({ ok: true, content: 'c' });
    expect(await call('readdir', { path: join(home, 'd') })).toEqual({
      ok: true,
      entries: [{ name: 'g', type: 'file' }],
    });
    expect(await call('unlink', { path: join(home, 'd', 'g') })).toEqual({ ok: true });
    expect(await call('readFile', { path: join(home, 'd', 'g') })).toMatchObject({ ok: false, errno: 'ENOENT' });
  });
  it('readdir may list / and home ancestors, not siblings', async () => {
    expect(await call('readdir', { path: '/' })).toMatchObject({ ok: true });
    const r = (await call('readdir', { path: base })) as { ok: boolean; entries: { name: string }[] };
    expect(r.entries.map((e) => e.name).sort()).toEqual(['home', 'home2', 'outside']);
    expect(await call('readdir', { path: join(base, 'outside') })).toMatchObject({ ok: false, errno: 'EACCES' });
  });
  it('rename across the boundary is refused both ways', async () => {
    await writeFile(join(home, 'r'), 'r');
    expect(await call('rename', { src: join(home, 'r'), dst: join(base, 'outside', 'r') })).toMatchObject({
      ok: false,
      errno: 'EACCES',
    });
    expect(await call('rename', { src: join(base, 'outside', 'secret'), dst: join(home, 'r2') })).toMatchObject({
      ok: false,
      errno: 'EACCES',
    });
  });
  it('EFBIG: a file under the cap whose JSON encoding passes it, and an over-cap file (unread)', async () => {
    const quotes = '"'.repeat(Math.floor(FS_BRIDGE_MAX_FRAME_BYTES / 2) + 10);
    await writeFile(join(home, 'q'), quotes);
    expect((await stat(join(home, 'q'))).size).toBeLessThan(FS_BRIDGE_MAX_FRAME_BYTES);
    expect(await call('readFile', { path: join(home, 'q') })).toMatchObject({ ok: false, errno: 'EFBIG' });
    await writeFile(join(home, 'big'), Buffer.alloc(FS_BRIDGE_MAX_FRAME_BYTES + 1));
    expect(await call('readFile', { path: join(home, 'big') })).toMatchObject({ ok: false, errno: 'EFBIG' });
  });
});
