import { readFileSync } from 'node:fs';
import path from 'node:path';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hook, onlyRun, shq, tempDir, testRunner, writeScript } from '../test/support.ts';
import { MAX_STDERR_CHARS, MAX_STDOUT_CHARS, MAX_TIMER_MS } from './limits.ts';
import { clampTimeoutMs, spawnHook, windowsLaunchArgs } from './spawn.ts';

/** Alive and not a zombie (this machine's init may not reap orphans). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).charAt(0) !== 'Z';
  } catch {
    return true;
  }
}

describe('spawnHook stdin', () => {
  const cases: [string, string][] = [
    ['multi-byte UTF-8', JSON.stringify({ prompt: 'héllo 世界 🎉 \u0000 \\ "q"' })],
    ['> 64 KiB', JSON.stringify({ prompt: 'ä'.repeat(70_000) })],
    ['1 MB', JSON.stringify({ prompt: 'x€'.repeat(350_000) })],
  ];
  for (const [name, payload] of cases) {
    it(`delivers the exact bytes: ${name}`, async () => {
      const dir = tempDir();
      const out = path.join(dir, 'stdin.bin');
      const r = await spawnHook({ command: `cat > ${shq(out)}`, cwd: dir, env: {}, stdin: payload, timeoutMs: 20_000 });
      expect(r.exitCode).toBe(0);
      const got = readFileSync(out);
      const want = Buffer.from(payload, 'utf8');
      // Why: Buffer.equals, not toEqual — a deep element-wise diff of 1 MB is slow.
      expect({ length: got.length, equal: got.equals(want) }).toEqual({ length: want.length, equal: true });
      expect(r.stdin).toBe(payload);
    });
  }

  it('survives a hook that never reads a payload larger than the pipe buffer (EPIPE swallowed)', async () => {
    const r = await spawnHook({
      command: 'echo "{}"; exit 0',
      cwd: tempDir(),
      env: {},
      stdin: 'y'.repeat(8 * 1024 * 1024),
      timeoutMs: 20_000,
    });
    expect({ exitCode: r.exitCode, stdout: r.stdout, timedOut: r.timedOut }).toEqual({
      exitCode: 0,
      stdout: '{}\n',
      timedOut: false,
    });
  });
});

describe('spawnHook never hangs', () => {
  it('timeout kills the whole process group, grandchild included', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'gc.pid');
    const r = await spawnHook({
      command: `sleep 60 & echo $! > ${shq(pidFile)}; wait`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      stdin: '{}',
      timeoutMs: 500,
    });
    expect({ timedOut: r.timedOut, exitCode: r.exitCode }).toEqual({ timedOut: true, exitCode: null });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Why: SIGKILL of the group is delivered at once, but reaping takes a moment; wait for the death.
    await expect(until('the grandchild to die', () => !pidAlive(pid), { timeoutMs: 5000 })).resolves.toBe(true);
  });

  it('timeout resolves even when a grandchild in its own session holds stdout', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'gc.pid');
    const r = await spawnHook({
      command: `setsid sleep 30 & echo $! > ${shq(pidFile)}; sleep 60`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      stdin: '{}',
      timeoutMs: 500,
    });
    expect(r.timedOut).toBe(true);
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  });

  it('a normal exit resolves without waiting for a background job that holds stdout', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'gc.pid');
    // Why: if the runner waited for EOF, the 15 s timeout would fire first and timedOut would be true.
    const r = await spawnHook({
      command: `sleep 25 & echo $! > ${shq(pidFile)}; echo '{"ok":1}'; exit 0`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      stdin: '{}',
      timeoutMs: 15_000,
    });
    expect({ exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout }).toEqual({
      exitCode: 0,
      timedOut: false,
      stdout: '{"ok":1}\n',
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(pidAlive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  }, 25_000);

  it('stdout flood: group killed, first MAX_STDOUT_CHARS kept, exitCode null', async () => {
    const r = await spawnHook({
      command: 'yes',
      cwd: tempDir(),
      env: { PATH: process.env.PATH ?? '' },
      stdin: '',
      timeoutMs: 20_000,
    });
    expect({ truncated: r.stdoutTruncated, len: r.stdout.length, exitCode: r.exitCode, timedOut: r.timedOut }).toEqual({
      truncated: true,
      len: MAX_STDOUT_CHARS,
      exitCode: null,
      timedOut: false,
    });
  });

  it('stderr flood is capped and drained without a kill', async () => {
    const r = await spawnHook({
      command: `head -c 1500000 /dev/zero | tr '\\0' e >&2; echo '{"permission":"deny"}'`,
      cwd: tempDir(),
      env: { PATH: process.env.PATH ?? '' },
      stdin: '',
      timeoutMs: 20_000,
    });
    expect({ truncated: r.stderrTruncated, len: r.stderr.length, exitCode: r.exitCode, stdout: r.stdout }).toEqual({
      truncated: true,
      len: MAX_STDERR_CHARS,
      exitCode: 0,
      stdout: '{"permission":"deny"}\n',
    });
  });

  it('abort kills the group and marks the run aborted', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await spawnHook({
      command: 'sleep 30',
      cwd: tempDir(),
      env: {},
      stdin: '',
      timeoutMs: 20_000,
      signal: ac.signal,
    });
    expect({ aborted: r.aborted, exitCode: r.exitCode, timedOut: r.timedOut }).toEqual({
      aborted: true,
      exitCode: null,
      timedOut: false,
    });
  });

  it('a missing cwd is a spawn error; a missing binary is exit 127', async () => {
    const missing = await spawnHook({
      command: 'true',
      cwd: '/nonexistent/dir/x',
      env: {},
      stdin: '',
      timeoutMs: 5000,
    });
    expect(missing.spawnError).toMatch(/^failed to start: /);
    const noBin = await spawnHook({
      command: 'definitely-not-a-binary-xyz',
      cwd: tempDir(),
      env: { PATH: process.env.PATH ?? '' },
      stdin: '',
      timeoutMs: 5000,
    });
    expect(noBin.exitCode).toBe(127);
  });

  it('runs /bin/sh -c, never a login shell (no profile output on stdout)', async () => {
    const home = tempDir();
    writeScript(home, '.profile', 'echo PROFILE-NOISE\n');
    const r = await spawnHook({
      command: 'echo "$0"',
      cwd: home,
      env: { HOME: home, ENV: '' },
      stdin: '',
      timeoutMs: 5000,
    });
    expect(r.stdout).toBe('/bin/sh\n');
  });
});

describe('timeouts', () => {
  it('clamps positive finite values and falls back otherwise', () => {
    expect(clampTimeoutMs(1e20, 30_000)).toBe(MAX_TIMER_MS);
    expect(clampTimeoutMs(Number.POSITIVE_INFINITY, 30_000)).toBe(30_000);
    expect(clampTimeoutMs(Number.NaN, 30_000)).toBe(30_000);
    expect(clampTimeoutMs(-5, 30_000)).toBe(30_000);
    expect(clampTimeoutMs(0, 30_000)).toBe(30_000);
    fc.assert(
      fc.property(fc.double(), (ms) => {
        const v = clampTimeoutMs(ms, 1000);
        return v >= 1 && v <= MAX_TIMER_MS && Number.isFinite(v);
      }),
    );
  });

  it('a huge hook timeout does not fire at once (Node timer overflow)', async () => {
    const t = testRunner({ hooks: [] });
    const h = hook({ dialect: 'orca', event: 'beforeDiffApply', command: 'sleep 0.3; echo "{}"', timeoutMs: 1e12 });
    const r = await t.runner.run(h, { filePath: '/x' });
    expect(r).toEqual({ outcome: null, failed: false });
    expect(onlyRun(t)).toMatchObject({ timedOut: false, exitCode: 0, timeoutMs: MAX_TIMER_MS });
  });
});

describe('Windows launch', () => {
  it.skipIf(process.platform !== 'win32')('passes a command with spaces to cmd verbatim', async () => {
    const r = await spawnHook({
      command: 'echo "a b"',
      cwd: process.cwd(),
      env: { ...process.env } as Record<string, string>,
      stdin: '',
      timeoutMs: 5000,
    });
    expect(r.stdout.trim()).toBe('"a b"');
  });
  it('builds /d /s /c "<command>" for cmd (verbatim quoting)', () => {
    if (process.platform !== 'win32') console.log('skip real cmd run: not on Windows (runs in Windows CI only)');
    expect(windowsLaunchArgs('"C:\\Program Files\\hook.cmd" --x')).toEqual([
      '/d',
      '/s',
      '/c',
      '""C:\\Program Files\\hook.cmd" --x"',
    ]);
  });
});
