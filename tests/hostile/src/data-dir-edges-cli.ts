import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const CLI_ENTRY = join(dirname(require.resolve('@orca/host/package.json')), 'src', 'cli.ts');
const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

/** argv that runs the real `orca` CLI from source with `args`. */
export function orcaArgv(args: readonly string[]): string[] {
  return [process.execPath, TSX_CLI, '--conditions=orca-source', CLI_ENTRY, ...args];
}

/**
 * Whether this machine lets us make a user + mount namespace (`unshare -rm`) and bind-mount in
 * it; `reason` says why not (printed by the tests that skip).
 */
export function userNamespaceSupport(): { ok: boolean; reason: string } {
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount --bind /tmp /tmp'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return { ok: false, reason: `unshare is not available: ${r.error.message}` };
  if (r.status !== 0)
    return {
      ok: false,
      reason: `unprivileged user + mount namespaces unavailable: ${r.stderr.trim() || `exit ${r.status}`}`,
    };
  return { ok: true, reason: '' };
}

/** How a tracked process ended. */
export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** True when we killed it because it outlived its time limit. */
  readonly timedOut: boolean;
}

/** A spawned process in its own process group, killed with everything it started. */
export interface Tracked {
  readonly child: ChildProcess;
  readonly ended: Promise<Ended>;
  stdout(): string;
  stderr(): string;
  alive(): boolean;
  /** Signals the whole process group (the tsx wrapper and the node process it runs). */
  signal(signal: NodeJS.Signals): void;
  /** The `orca` host process itself, once its ready line named it (set by {@link startTracked}). */
  hostPid?: number;
}

const tracked = new Set<Tracked>();

/**
 * Spawns `argv` as the leader of a new process group; if it is still running after `timeoutMs` its
 * group is SIGKILLed and `ended` resolves with `timedOut: true` (a test can never hang on it).
 */
export function spawnTracked(
  argv: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; onStdout?: (all: string) => void } = {},
): Tracked {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env },
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let exited = false;
  let timedOut = false;
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    opts.onStdout?.(stdout);
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    signalGroup('SIGKILL');
  }, opts.timeoutMs ?? 30_000);
  const ended = new Promise<Ended>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      exited = true;
      clearTimeout(timer);
      // Why: the wrapper may exit before a grandchild; nothing of the group may outlive the test.
      signalGroup('SIGKILL');
      resolve({ code, signal, stdout, stderr, timedOut });
    };
    child.on('error', (error) => {
      stderr += String(error);
      finish(null, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
  const t: Tracked = {
    child,
    ended,
    stdout: () => stdout,
    stderr: () => stderr,
    alive: () => !exited,
    signal: signalGroup,
  };
  tracked.add(t);
  void ended.then(() => tracked.delete(t));
  return t;
}

/** Runs `argv` to its end (killed after `timeoutMs`). */
export function runTracked(
  argv: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Ended> {
  return spawnTracked(argv, opts).ended;
}

/** SIGTERMs every tracked process group still running, then SIGKILLs what is left after `graceMs`. */
export async function killAllTracked(graceMs = 3_000): Promise<void> {
  const running = [...tracked];
  for (const t of running) t.signal('SIGTERM');
  await Promise.race([Promise.all(running.map((t) => t.ended)), new Promise((r) => setTimeout(r, graceMs))]);
  for (const t of running) t.signal('SIGKILL');
  await Promise.all(running.map((t) => t.ended));
}

/** What `orca --json start` printed on its ready line. */
export interface Ready {
  readonly pid: number;
  readonly socket: string;
  readonly [key: string]: unknown;
}

/**
 * Starts `argvPrefix… orca --json --data-dir DIR start` tracked, and resolves with its ready line;
 * resolves `null` (process ended or killed) when it never got ready within `timeoutMs`.
 */
export async function startTracked(
  dataDir: string,
  opts: { env?: NodeJS.ProcessEnv; argvPrefix?: readonly string[]; timeoutMs?: number } = {},
): Promise<{ host: Tracked; ready: Ready | null }> {
  let resolveReady: (ready: Ready) => void = () => undefined;
  const readyLine = new Promise<Ready>((resolve) => {
    resolveReady = resolve;
  });
  const host = spawnTracked([...(opts.argvPrefix ?? []), ...orcaArgv(['--json', '--data-dir', dataDir, 'start'])], {
    ...(opts.env ? { env: opts.env } : {}),
    // Why: the host runs until stopped; its limit only ends a test that forgot it.
    timeoutMs: 120_000,
    onStdout: (all) => {
      const line = all.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      const parsed = (JSON.parse(line) as { ready: Ready }).ready;
      host.hostPid = parsed.pid;
      resolveReady(parsed);
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await Promise.race([
    readyLine,
    host.ended.then(() => null),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), opts.timeoutMs ?? 30_000);
    }),
  ]);
  clearTimeout(timer);
  return { host, ready };
}

/**
 * SIGTERMs a tracked host and waits for its end (SIGKILL after `graceMs`).
 * Why: the host itself is signalled, as a service manager does; the tsx wrapper then ends with it.
 * Signalling the whole group also made tsx relay the signal, and tsx SIGKILLs a child that does
 * not report the signal within 30 ms (exit 143 on a loaded machine): a wrapper artefact, not the host's.
 */
export async function stopTracked(host: Tracked, graceMs = 15_000): Promise<Ended> {
  if (host.hostPid === undefined) host.signal('SIGTERM');
  else {
    try {
      process.kill(host.hostPid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => host.signal('SIGKILL'), graceMs);
  const ended = await host.ended;
  clearTimeout(timer);
  return ended;
}
