import { spawn as nodeSpawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { PROBE_TIMEOUT_MS } from '../constants.ts';
import { RelayError } from '../errors.ts';
import { launchLine } from '../guest/scripts.ts';
import { RELAY_EXIT_CODES } from '../protocol.ts';
import type { GuestSpawner, SpawnFn, SpawnSpec, StartupFailure } from './types.ts';

const NETNS_NAME_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;
const GUEST_ENV_KEYS = [
  'ORCA_AGENT_HOOK_PORT',
  'ORCA_AGENT_HOOK_TOKEN',
  'ORCA_GUEST_INSTANCE',
  'ORCA_RELAY_VERSION',
] as const;
const defaultSpawn: SpawnFn = (file, args, options) => nodeSpawn(file, [...args], options);

function launchFor(vars: Record<string, string>): string {
  return launchLine(vars.ORCA_RELAY_VERSION ?? '');
}

function hostEnv(
  base: Record<string, string | undefined>,
  vars: Record<string, string>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base, ...vars };
  delete env.ORCA_AGENT_HOOK_ENDPOINT;
  return env;
}

/** `nsenter` argv that runs `argv` inside the namespace owned by holder `pid`. */
export function enterArgv(pid: number, argv: readonly string[]): string[] {
  return ['nsenter', '-t', String(pid), '-U', '-n', '--preserve-credentials', '--', ...argv];
}

/** Marker line the holder prints once `lo` is up. */
export const NETNS_READY_LINE = 'orca-netns-ready';

/**
 * argv of a netns holder: a user + network namespace with loopback up, kept alive by `sleep`.
 * Exits `RELAY_EXIT_CODES.netnsLoDown` when `lo` cannot be brought up.
 */
export function netnsHolderArgv(): string[] {
  return [
    'unshare',
    '-rn',
    '--',
    'sh',
    '-c',
    `PATH=$PATH:/usr/sbin:/sbin; ip link set lo up || exit ${RELAY_EXIT_CODES.netnsLoDown}; echo ${NETNS_READY_LINE}; exec sleep infinity`,
  ];
}

function runProbe(
  spawn: SpawnFn,
  file: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    let child: ReturnType<SpawnFn>;
    try {
      child = spawn(file, args, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch {
      resolve({ code: null, stdout: '' });
      return;
    }
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      resolve({ code: null, stdout: out });
    }, timeoutMs);
    child.stdin?.end();
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString('utf8');
    });
    child.stderr?.resume();
    child.on('error', () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code: null, stdout: out });
    });
    child.on('close', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code, stdout: out });
    });
  });
}

/** Options of {@link netnsSpawner}. */
export interface NetnsSpawnerOptions {
  /** Pid of the holder owning namespace `name`, or undefined when there is none. */
  holderPid(name: string): number | undefined;
  /** HOME of the guest named `name` (default: the host's). */
  home?(name: string): string | undefined;
  env?: Record<string, string | undefined>;
}

/**
 * Spawner for `netns` guests: the relay joins a holder's user + network namespace with `nsenter`.
 *
 * @example
 * netnsSpawner({ holderPid: (name) => holders.get(name)?.pid })
 */
export function netnsSpawner(options: NetnsSpawnerOptions): GuestSpawner {
  const base = options.env ?? process.env;
  const key = (t: string): string => {
    const k = t.trim();
    if (!NETNS_NAME_RE.test(k))
      throw new RelayError(
        'ORCA_RELAY_BAD_OPTIONS',
        `netns name must match ${NETNS_NAME_RE.source}, got ${JSON.stringify(t.slice(0, 200))}`,
      );
    return k;
  };
  const envFor = (name: string, vars: Record<string, string>) => {
    const env = hostEnv(base, vars);
    const home = options.home?.(name);
    if (home !== undefined) env.HOME = home;
    return env;
  };
  return {
    kind: 'netns',
    key,
    connectionId: (t) => `netns:${key(t)}`,
    token: (_t, hostToken) => hostToken,
    launch(t, vars) {
      const name = key(t);
      const pid = options.holderPid(name);
      if (pid === undefined) throw Object.assign(new Error(`no netns holder for ${name}`), { code: 'ENOHOLDER' });
      const [file, ...args] = enterArgv(pid, ['sh', '-c', launchFor(vars)]);
      return { file: file ?? 'nsenter', args, env: envFor(name, vars) };
    },
    install(t) {
      return { file: 'sh', args: ['-s'], env: envFor(key(t), {}) };
    },
    classify(f: StartupFailure) {
      if (f.kind === 'spawn-error') return 'unavailable';
      if (
        f.kind === 'exit' &&
        /nsenter: .*(Operation not permitted|No such process|cannot open|failed to)/i.test(f.stderrTail)
      )
        return 'unavailable';
      return 'other';
    },
    isRunning: async (t) => options.holderPid(key(t)) !== undefined,
  };
}

/** Options of {@link sshSpawner}. */
export interface SshSpawnerOptions {
  /**
   * Extra ssh arguments placed before the destination (`-i key`, `-p`, `-o …`): one list for every
   * target, or a function giving each target its own (called with the target as passed to `ensure`).
   */
  sshArgs?: readonly string[] | ((target: string) => readonly string[] | undefined);
  env?: Record<string, string | undefined>;
  spawn?: SpawnFn;
}

/** `ssh://user@host:port` when the target carries a port, else the target. */
export function sshDestination(target: string): string {
  const t = target.trim();
  const m = /^([^[\]]*@)?([^:@/[\]]+):(\d{1,5})$/.exec(t);
  return m === null ? t : `ssh://${m[1] ?? ''}${m[2]}:${m[3]}`;
}

const SSH_READ_PREAMBLE = `read -r ${GUEST_ENV_KEYS.join(' ')} && export ${GUEST_ENV_KEYS.join(' ')}`;

/**
 * Spawner for SSH guests (OpenSSH). Secrets travel on stdin (one line), never on argv.
 *
 * @example
 * sshSpawner({ sshArgs: ['-i', keyPath] })
 */
export function sshSpawner(options: SshSpawnerOptions = {}): GuestSpawner {
  const base = options.env ?? process.env;
  const spawn = options.spawn ?? defaultSpawn;
  const key = (t: string): string => {
    const k = t.trim().toLowerCase();
    if (k === '' || k.startsWith('-'))
      throw new RelayError('ORCA_RELAY_BAD_OPTIONS', `bad ssh target ${JSON.stringify(t.slice(0, 200))}`);
    return k;
  };
  const extra = (t: string): readonly string[] => {
    const a = options.sshArgs;
    return (typeof a === 'function' ? a(t.trim()) : a) ?? [];
  };
  // Why: the key is lowercased for identity only; ssh gets the target as typed (`Admin@host` is not `admin@host`).
  const dest = (t: string): string => {
    key(t);
    return sshDestination(t.trim());
  };
  const head = (t: string): string[] => [
    '-T',
    '-o',
    'BatchMode=yes',
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
    ...extra(t),
  ];
  return {
    kind: 'ssh',
    key,
    connectionId: (t) => `ssh:${key(t)}`,
    token: () => randomBytes(16).toString('hex'),
    launch(t, vars): SpawnSpec {
      const env = hostEnv(base, {});
      const preamble = `${GUEST_ENV_KEYS.map((k) => vars[k] ?? '').join(' ')}\n`;
      return {
        file: 'ssh',
        args: [...head(t), dest(t), `sh -c '${SSH_READ_PREAMBLE}; ${launchFor(vars)}'`],
        env,
        preamble,
      };
    },
    install(t) {
      return { file: 'ssh', args: [...head(t), dest(t), 'sh -s'], env: hostEnv(base, {}) };
    },
    classify(f) {
      if (f.kind === 'spawn-error') return f.errno === 'ENOENT' ? 'unavailable' : 'other';
      if (
        f.kind === 'exit' &&
        f.code === 255 &&
        /connection (reset|closed|refused)|kex_exchange_identification/i.test(f.stderrTail)
      )
        return 'transient';
      return 'other';
    },
    async isRunning(t) {
      const r = await runProbe(
        spawn,
        'ssh',
        ['-T', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=10', ...extra(t), dest(t), 'true'],
        PROBE_TIMEOUT_MS,
      );
      return r.code === 0;
    },
  };
}

/** Options of {@link wslSpawner}. */
export interface WslSpawnerOptions {
  env?: Record<string, string | undefined>;
  spawn?: SpawnFn;
  /** Explicit working directory for `wsl.exe` (kept only when given). */
  cwd?: string;
}

/** Merge `VAR/u` entries into a WSLENV value without duplicates. */
export function mergeWslenv(existing: string | undefined, vars: readonly string[]): string {
  const parts = (existing ?? '').split(':').filter((p) => p !== '');
  const names = new Set(parts.map((p) => p.split('/')[0]));
  for (const v of vars) {
    if (names.has(v)) continue;
    names.add(v);
    parts.push(`${v}/u`);
  }
  return parts.join(':');
}

/**
 * Spawner for WSL distros (`wsl.exe --exec`, argv/env contract only; Windows cannot run here).
 *
 * @example
 * wslSpawner()
 */
export function wslSpawner(options: WslSpawnerOptions = {}): GuestSpawner {
  const base = options.env ?? process.env;
  const spawn = options.spawn ?? defaultSpawn;
  const key = (t: string): string => {
    const k = t.trim().toLowerCase();
    if (k === '' || k.startsWith('-'))
      throw new RelayError('ORCA_RELAY_BAD_OPTIONS', `bad WSL distro ${JSON.stringify(t.slice(0, 200))}`);
    return k;
  };
  const spec = (distro: string, argv: string[], vars: Record<string, string>): SpawnSpec => {
    const env = hostEnv(base, vars);
    env.WSL_UTF8 = '1';
    env.WSLENV = mergeWslenv(base.WSLENV, Object.keys(vars));
    const s: SpawnSpec = { file: 'wsl.exe', args: ['-d', distro, '--exec', ...argv], env, windowsHide: true };
    if (options.cwd !== undefined) s.cwd = options.cwd;
    return s;
  };
  return {
    kind: 'wsl',
    key,
    connectionId: (t) => `wsl:${key(t)}`,
    token: (_t, hostToken) => hostToken,
    launch: (t, vars) => spec(t.trim(), ['sh', '-c', launchFor(vars)], vars),
    install: (t) => spec(t.trim(), ['sh', '-s'], {}),
    classify(f) {
      if (f.kind === 'spawn-error') return f.errno === 'ENOENT' ? 'unavailable' : 'other';
      if (/catastrophic failure/i.test(f.stderrTail.replace(/\0/g, ''))) return 'transient';
      return 'other';
    },
    async isRunning(t) {
      const r = await runProbe(spawn, 'wsl.exe', ['--list', '--running', '--quiet'], PROBE_TIMEOUT_MS);
      if (r.code !== 0) return false;
      const want = key(t);
      return r.stdout
        .replace(/\0/g, '')
        .split(/\r?\n/)
        .some((l) => l.trim().toLowerCase() === want);
    },
  };
}
