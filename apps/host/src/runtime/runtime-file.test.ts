import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
