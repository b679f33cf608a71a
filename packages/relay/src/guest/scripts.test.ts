import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../test/helpers/proc.ts';
import { assertRelayVersion, buildInstallScript, buildLaunchScript } from './scripts.ts';

const VERSION = '0.0.0+abcdef012345';
const code = Buffer.from('// fake relay\nconsole.log("relay body")\n');

async function which(cmd: string): Promise<string | undefined> {
  const r = await run(['sh', '-c', `command -v ${cmd}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

const shells: [string, string[]][] = [];
for (const [name, argv] of [
  ['dash', ['dash']],
  ['bash', ['bash']],
  ['busybox sh', ['busybox', 'sh']],
  ['mksh', ['mksh']],
] as [string, string[]][]) {
  if ((await which(argv[0] ?? '')) !== undefined) shells.push([name, argv]);
  else console.log(`[skip] launch.sh under ${name}: not installed`);
}
const bwrap = await which('bwrap');
if (bwrap === undefined) console.log('[skip] no-node (43) case: bubblewrap not installed');

async function fakeNode(path: string, major: number): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, `#!/bin/sh\nif [ "$1" = -e ]; then [ ${major} -ge 18 ]; exit $?; fi\necho "RAN $0 $*"\n`);
  await chmod(path, 0o755);
}

describe('install script and launch.sh', () => {
  it('refuses versions outside [A-Za-z0-9+.-]', () => {
    for (const bad of ['a b', 'x;y', '../x', '', '$(id)', '.'])
      expect(() => assertRelayVersion(bad)).toThrow(expect.objectContaining({ code: 'ORCA_RELAY_BAD_VERSION' }));
    expect(() => buildInstallScript({ code, version: 'a/b' })).toThrow();
  });
  it('uses 76-column base64 lines and writes .version last', () => {
    const s = buildInstallScript({ code: Buffer.alloc(500, 7), version: VERSION });
    const b64 = s.split('\n').filter((l) => /^[A-Za-z0-9+/=]{20,}$/.test(l));
    expect(b64.every((l) => l.length <= 76)).toBe(true);
    expect(s.trimEnd().split('\n').at(-1)).toBe('mv -f "$d/.version.$$.tmp" "$d/.version"');
  });

  for (const [name, sh] of shells) {
    describe(name, () => {
      const setup = async () => {
        const home = await mkdtemp(join(tmpdir(), 'orca-launch-'));
        const r = await run([...sh, '-s'], {
          input: buildInstallScript({ code, version: VERSION }),
          env: { PATH: process.env.PATH ?? '', HOME: home },
        });
        expect(r).toMatchObject({ code: 0, stderr: '' });
        const dir = join(home, '.orca-guest', 'relay', VERSION);
        return { home, dir };
      };
      const launch = (home: string, dir: string, env: Record<string, string>, prefix: string[] = []) =>
        run([...prefix, ...sh, join(dir, 'launch.sh')], { env: { HOME: home, ...env } });

      it('installs with 0700 launch.sh, exact relay bytes and .version', async () => {
        const { dir } = await setup();
        expect(await readFile(join(dir, 'relay.cjs'))).toEqual(code);
        expect(await readFile(join(dir, 'launch.sh'), 'utf8')).toBe(buildLaunchScript());
        expect((await stat(join(dir, 'launch.sh'))).mode & 0o777).toBe(0o700);
        expect(await readFile(join(dir, '.version'), 'utf8')).toBe(`${VERSION}\n`);
      });
      it('stale, unset or missing version → 42', async () => {
        const { home, dir } = await setup();
        expect((await launch(home, dir, { PATH: '/usr/bin:/bin', ORCA_RELAY_VERSION: 'other' })).code).toBe(42);
        expect((await launch(home, dir, { PATH: '/usr/bin:/bin' })).code).toBe(42);
        await rm(join(dir, '.version'));
        expect((await launch(home, dir, { PATH: '/usr/bin:/bin', ORCA_RELAY_VERSION: VERSION })).code).toBe(42);
      });
      it('an old node on PATH does not mask a good one under nvm', async () => {
        const { home, dir } = await setup();
        const bin = join(home, 'oldbin');
        await fakeNode(join(bin, 'node'), 16);
        const nvmNode = join(home, '.nvm', 'versions', 'node', 'v20.1.0', 'bin', 'node');
        await fakeNode(nvmNode, 20);
        const r = await launch(home, dir, { PATH: `${bin}:/usr/bin:/bin`, ORCA_RELAY_VERSION: VERSION });
        expect(r).toMatchObject({ code: 0, stdout: `RAN ${nvmNode} ${join(dir, 'relay.cjs')}\n` });
      });
      it('a killed install (before .version) reads as stale → 42', async () => {
        const home = await mkdtemp(join(tmpdir(), 'orca-launch-killed-'));
        const full = buildInstallScript({ code, version: VERSION });
        const cut = full.slice(0, full.indexOf("printf '%s\\n'"));
        expect((await run([...sh, '-s'], { input: cut, env: { PATH: process.env.PATH ?? '', HOME: home } })).code).toBe(
          0,
        );
        const dir = join(home, '.orca-guest', 'relay', VERSION);
        expect((await launch(home, dir, { PATH: '/usr/bin:/bin', ORCA_RELAY_VERSION: VERSION })).code).toBe(42);
      });
      it.skipIf(bwrap === undefined)('no node ≥ 18 anywhere → 43 (system nodes hidden with bubblewrap)', async () => {
        const { home, dir } = await setup();
        const bin = join(home, 'oldbin');
        await fakeNode(join(bin, 'node'), 16);
        const prefix = ['bwrap', '--bind', '/', '/', '--dev', '/dev'];
        for (const p of ['/usr/bin/node', '/usr/local/bin/node']) {
          if (
            await stat(p).then(
              () => true,
              () => false,
            )
          )
            prefix.push('--ro-bind', '/dev/null', p);
        }
        const r = await launch(home, dir, { PATH: `${bin}:/usr/bin:/bin`, ORCA_RELAY_VERSION: VERSION }, prefix);
        expect(r.stderr).toContain('no node >= 18');
        expect(r.code).toBe(43);
      });
    });
  }
});
