import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HostError } from '../errors.ts';
import { acquireRuntimeFile, readRuntimeInfo } from './runtime-file.ts';

function info(pid: number) {
  return { pid, socket: '/x/runtime.sock', protocolVersion: 3, appVersion: '0.0.0', startedAt: 1 };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid ?? 999_999;
}

describe('acquireRuntimeFile', () => {
  it('publishes runtime.json with mode 0600 and removes it on release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-rt-'));
    const path = join(dir, 'runtime.json');
    const claim = acquireRuntimeFile(path, info(process.pid));
    expect(readRuntimeInfo(path)).toEqual(info(process.pid));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['runtime.json']);
    claim.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses while the pid in runtime.json is alive, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-rt-'));
    const path = join(dir, 'runtime.json');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const pid = holder.pid ?? 0;
      writeFileSync(path, JSON.stringify(info(pid)));
      let caught: unknown;
      try {
        acquireRuntimeFile(path, info(process.pid));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(HostError);
      expect((caught as HostError).code).toBe('ORCA_HOST_ALREADY_RUNNING');
      expect((caught as HostError).message).toContain(`pid ${pid}`);
    } finally {
      holder.kill();
    }
  });

  it('takes over a stale file (dead pid) and a garbage file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-rt-'));
    const path = join(dir, 'runtime.json');
    writeFileSync(path, JSON.stringify(info(await deadPid())));
    acquireRuntimeFile(path, info(process.pid)).release();
    writeFileSync(path, '{"pid": "not a number"');
    const claim = acquireRuntimeFile(path, info(process.pid));
    expect(readRuntimeInfo(path)?.pid).toBe(process.pid);
    claim.release();
  });

  it('is released when the process dies of an uncaught error after claiming', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-rt-'));
    const path = join(dir, 'runtime.json');
    const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const module = join(dirname(fileURLToPath(import.meta.url)), 'runtime-file.ts');
    const script = `import { acquireRuntimeFile } from ${JSON.stringify(module)};
acquireRuntimeFile(${JSON.stringify(path)}, { pid: process.pid, socket: '/x', protocolVersion: 3, appVersion: '0', startedAt: 1 });
console.log('claimed');
setTimeout(() => { throw new Error('boom'); }, 10);`;
    const r = spawnSync(process.execPath, [tsx, '--eval', script], { encoding: 'utf8', timeout: 30_000 });
    expect({ code: r.status, out: r.stdout.trim(), boom: /boom/.test(r.stderr) }).toEqual({
      code: 1,
      out: 'claimed',
      boom: true,
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('of many starts that find the same stale file at once, exactly one claims it (the others are refused)', async () => {
    const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const module = join(dirname(fileURLToPath(import.meta.url)), 'runtime-file.ts');
    for (let round = 0; round < 3; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'orca-rt-race-'));
      const path = join(dir, 'runtime.json');
      writeFileSync(path, JSON.stringify(info(await deadPid())));
      const startAt = Date.now() + 4_000;
      const script = `import { acquireRuntimeFile } from ${JSON.stringify(module)};
while (Date.now() < ${startAt}) {}
try {
  acquireRuntimeFile(${JSON.stringify(path)}, { pid: process.pid, socket: '/x', protocolVersion: 3, appVersion: '0', startedAt: 1 });
  console.log('claimed');
} catch (error) { console.log(error.code ?? String(error)); }
setTimeout(() => {}, 1_500);`;
      const outcomes = await Promise.all(
        Array.from(
          { length: 6 },
          () =>
            new Promise<string>((resolve) => {
              const child = spawn(process.execPath, [tsx, '--conditions=orca-source', '--eval', script], {
                stdio: ['ignore', 'pipe', 'inherit'],
              });
              let out = '';
              child.stdout.on('data', (d: Buffer) => {
                out += d.toString();
              });
              child.on('exit', () => resolve(out.trim()));
            }),
        ),
      );
      expect(
        outcomes.filter((o) => o === 'claimed'),
        outcomes.join(', '),
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o !== 'claimed').every((o) => o === 'ORCA_HOST_ALREADY_RUNNING')).toBe(true);
    }
  }, 90_000);

  it('release() removes the file only while it is still ours', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orca-rt-'));
    const path = join(dir, 'runtime.json');
    const claim = acquireRuntimeFile(path, info(process.pid));
    writeFileSync(path, JSON.stringify({ ...info(process.pid), startedAt: 2 }));
    claim.release();
    expect(readRuntimeInfo(path)?.startedAt).toBe(2);
  });
});
