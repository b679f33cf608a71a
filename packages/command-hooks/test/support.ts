import { spawn as nodeSpawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import type { CommandHook } from '../src/hook.ts';
import type { HookRecord, RunRecord } from '../src/records.ts';
import { type CommandHookRunner, type CommandHookRunnerOptions, createCommandHookRunner } from '../src/runner.ts';
import type { SpawnFunction } from '../src/spawn.ts';

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory removed after the file's tests. */
export function tempDir(prefix = 'cmdhooks-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Write an executable script (creating parent dirs) and return its absolute path. */
export function writeScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

/** Write a file (creating parent dirs). */
export function writeText(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  return file;
}

/** Single-quote for sh. */
export function shq(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A hook with test defaults. */
export function hook(fields: Partial<CommandHook> & Pick<CommandHook, 'dialect' | 'event' | 'command'>): CommandHook {
  return {
    id: `${fields.dialect}:test#/${fields.wireEvent ?? fields.event}`,
    wireEvent: fields.event,
    cwd: os.tmpdir(),
    timeoutMs: 10_000,
    onFailure: 'open',
    ...fields,
  };
}

/** A runner whose spawns and records are counted; the suite-wide sink checks one record per spawn. */
export interface TestRunner {
  runner: CommandHookRunner;
  records: HookRecord[];
  runs: () => RunRecord[];
  spawnCalls: () => number;
}

const liveRunners: { t: TestRunner; strictCount: boolean }[] = [];

afterEach(async () => {
  const list = liveRunners.splice(0);
  for (const { t, strictCount } of list) {
    await t.runner.whenIdle();
    // Suite-wide record invariant: exactly one run record per spawned process, none per abstention.
    if (strictCount) expect(t.runs().length).toBe(t.spawnCalls());
  }
});

/**
 * Create a runner for tests: real spawns (counted), records collected. `strictCount: false` for
 * runs that record without spawning (sandbox prepare failures, pre-aborted signals).
 */
export function testRunner(
  opts: Omit<CommandHookRunnerOptions, 'record'> & { strictCount?: boolean; record?: (r: HookRecord) => void },
): TestRunner {
  const records: HookRecord[] = [];
  let calls = 0;
  const countingSpawn = ((...args: Parameters<SpawnFunction>) => {
    calls++;
    return (opts.spawn ?? nodeSpawn)(...args);
  }) as SpawnFunction;
  const { strictCount = true, ...rest } = opts;
  const runner = createCommandHookRunner({
    baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() },
    ...rest,
    spawn: countingSpawn,
    record: (r) => {
      records.push(r);
      opts.record?.(r);
    },
  });
  const t: TestRunner = {
    runner,
    records,
    runs: () => records.filter((r): r is RunRecord => r.kind === 'run'),
    spawnCalls: () => calls,
  };
  liveRunners.push({ t, strictCount });
  return t;
}

/** The single run record, asserting there is exactly one. */
export function onlyRun(t: TestRunner): RunRecord {
  const runs = t.runs();
  expect(runs).toHaveLength(1);
  const [r] = runs;
  if (r === undefined) throw new Error('no run record');
  return r;
}

/** Both failure policies, for parametrised suites. */
export const POLICIES = ['vendor', 'strict'] as const;
