import { type ChildProcess, spawn as nodeSpawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { EXIT_DRAIN_GRACE_MS, MAX_STDERR_CHARS, MAX_STDOUT_CHARS, MAX_TIMER_MS } from './limits.ts';
import type { SandboxLaunch, SandboxRuntime } from './sandbox.ts';

/** Node's `child_process.spawn`, injectable. */
export type SpawnFunction = typeof nodeSpawn;

/** One hook process to run. */
export interface HookSpawnRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** Written with one `end()`; EPIPE swallowed. */
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** When set, the run is launched through `sandbox.prepare`. */
  sandbox?: SandboxRuntime;
  spawn?: SpawnFunction;
  platform?: NodeJS.Platform;
  /** Epoch-ms clock for `startedAt`. */
  clock?: () => number;
}

/** Everything the runner observed about one hook process. */
export interface HookSpawnResult {
  stdin: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** null when killed (timeout, abort, stdout cap) or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
  startedAt: number;
  durationMs: number;
  timeoutMs: number;
  sandboxed: boolean;
  sandboxViolations: number;
}

/** Clamp a timeout: positive finite → at most `MAX_TIMER_MS`; anything else → `fallbackMs`. */
export function clampTimeoutMs(ms: number, fallbackMs: number): number {
  if (!Number.isFinite(ms) || ms <= 0) return Math.min(fallbackMs, MAX_TIMER_MS);
  return Math.min(Math.ceil(ms), MAX_TIMER_MS);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Raw launch: `/bin/sh -c` (never login/interactive) or `%ComSpec% /d /s /c "<command>"` verbatim. */
function rawLaunch(command: string, env: Record<string, string>, platform: NodeJS.Platform): SandboxLaunch {
  if (platform === 'win32') {
    return { file: env.ComSpec ?? env.COMSPEC ?? 'cmd.exe', args: windowsLaunchArgs(command) };
  }
  return { file: '/bin/sh', args: ['-c', command] };
}

/** Arguments of the Windows launch, exported for the quoting test (runs only on Windows). */
export function windowsLaunchArgs(command: string): string[] {
  return ['/d', '/s', '/c', `"${command}"`];
}

async function prepareWithin(
  sandbox: SandboxRuntime,
  request: { command: string; cwd: string; env: Record<string, string> },
  timeoutMs: number,
): Promise<SandboxLaunch> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      sandbox.prepare(request),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`sandbox prepare timed out after ${timeoutMs}ms`)), timeoutMs);
      }),
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function killTree(child: ChildProcess, platform: NodeJS.Platform, spawnFn: SpawnFunction): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (platform === 'win32') {
      spawnFn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true }).on(
        'error',
        () => {},
      );
    } else {
      process.kill(-pid, 'SIGKILL');
    }
  } catch {
    // Why: the group may already be gone (ESRCH); killing the leader alone is the fallback.
    try {
      child.kill('SIGKILL');
    } catch {}
  }
}

/**
 * Spawn one hook and collect what happened. Never rejects and never hangs: stdin is ended after
 * the payload, the wall-clock timeout and `signal` kill the whole process group, and the result
 * resolves at most `EXIT_DRAIN_GRACE_MS` after exit or kill even if a descendant holds stdout.
 *
 * @example
 * const r = await spawnHook({ command: 'cat', cwd: '/tmp', env: {}, stdin: '{}', timeoutMs: 5000 });
 * r.stdout; // '{}'
 */
export async function spawnHook(request: HookSpawnRequest): Promise<HookSpawnResult> {
  const platform = request.platform ?? process.platform;
  const spawnFn = request.spawn ?? nodeSpawn;
  const clock = request.clock ?? Date.now;
  const startedAt = clock();
  const t0 = performance.now();
  const timeoutMs = clampTimeoutMs(request.timeoutMs, MAX_TIMER_MS);
  const base: HookSpawnResult = {
    stdin: request.stdin,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    startedAt,
    durationMs: 0,
    timeoutMs,
    sandboxed: request.sandbox !== undefined,
    sandboxViolations: 0,
  };

  let launch: SandboxLaunch;
  if (request.sandbox) {
    try {
      launch = await prepareWithin(
        request.sandbox,
        { command: request.command, cwd: request.cwd, env: request.env },
        timeoutMs,
      );
    } catch (error) {
      return {
        ...base,
        spawnError: `sandbox ${request.sandbox.name}: ${errorText(error)}`,
        durationMs: performance.now() - t0,
      };
    }
  } else {
    launch = rawLaunch(request.command, request.env, platform);
  }

  const result = await runProcess(request, launch, base, platform, spawnFn, t0);
  if (request.sandbox && result.spawnError === undefined) {
    try {
      result.sandboxViolations = await request.sandbox.violations(launch);
    } catch {
      result.sandboxViolations = 0;
    }
  }
  if (request.sandbox?.release) {
    try {
      await request.sandbox.release(launch);
    } catch {}
  }
  return result;
}

function runProcess(
  request: HookSpawnRequest,
  launch: SandboxLaunch,
  base: HookSpawnResult,
  platform: NodeJS.Platform,
  spawnFn: SpawnFunction,
  t0: number,
): Promise<HookSpawnResult> {
  return new Promise((resolve) => {
    const result: HookSpawnResult = { ...base };
    if (request.signal?.aborted) {
      resolve({ ...result, aborted: true, durationMs: performance.now() - t0 });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawnFn(launch.file, launch.args, {
        cwd: request.cwd,
        env: launch.env ?? request.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: platform === 'win32' && request.sandbox === undefined,
      });
    } catch (error) {
      resolve({ ...result, spawnError: `failed to start: ${errorText(error)}`, durationMs: performance.now() - t0 });
      return;
    }

    let done = false;
    let killed = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');

    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timeoutTimer);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      request.signal?.removeEventListener('abort', onAbort);
      appendStdout(outDecoder.end());
      appendStderr(errDecoder.end());
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      if (killed) result.exitCode = null;
      result.durationMs = performance.now() - t0;
      resolve(result);
    };
    const startGrace = (): void => {
      if (graceTimer === undefined && !done) graceTimer = setTimeout(finish, EXIT_DRAIN_GRACE_MS);
    };
    const kill = (): void => {
      killed = true;
      killTree(child, platform, spawnFn);
      startGrace();
    };
    const appendStdout = (chunk: string): void => {
      if (chunk === '' || result.stdoutTruncated) return;
      const room = MAX_STDOUT_CHARS - result.stdout.length;
      if (chunk.length > room) {
        result.stdout += chunk.slice(0, room);
        result.stdoutTruncated = true;
        if (!done) kill();
        return;
      }
      result.stdout += chunk;
    };
    const appendStderr = (chunk: string): void => {
      if (chunk === '') return;
      if (result.stderrTruncated) return;
      const room = MAX_STDERR_CHARS - result.stderr.length;
      if (chunk.length > room) {
        result.stderr += chunk.slice(0, room);
        result.stderrTruncated = true;
        return;
      }
      result.stderr += chunk;
    };
    const onAbort = (): void => {
      result.aborted = true;
      kill();
    };
    const timeoutTimer = setTimeout(() => {
      result.timedOut = true;
      kill();
    }, result.timeoutMs);

    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (b: Buffer) => appendStdout(outDecoder.write(b)));
    child.stderr?.on('data', (b: Buffer) => appendStderr(errDecoder.write(b)));
    child.stdout?.on('error', () => {});
    child.stderr?.on('error', () => {});
    // Why: a hook that exits without reading stdin makes our write fail with EPIPE; never unhandled.
    child.stdin?.on('error', () => {});
    child.on('error', (error) => {
      if (child.pid === undefined) {
        result.spawnError = `failed to start: ${errorText(error)}`;
        finish();
      }
    });
    child.on('exit', (code, signal) => {
      result.exitCode = code;
      result.signal = signal;
      clearTimeout(timeoutTimer);
      startGrace();
    });
    child.on('close', finish);
    try {
      child.stdin?.end(request.stdin);
    } catch {}
  });
}
