import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { endKeeper, until } from '@orca/testkit';

export { until };

const require = createRequire(import.meta.url);
/** The real `orca` CLI entry, run from source through tsx (no build needed). */
const CLI_ENTRY = join(dirname(require.resolve('@orca/host/package.json')), 'src', 'cli.ts');
const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

/** What `orca --json start` printed on its ready line. */
export interface ReadyLine {
  readonly dataDir: string;
  readonly pid: number;
  readonly hookPort: number;
  readonly socket: string;
  readonly [key: string]: unknown;
}

/** A real `orca start` child on its own data directory. */
export interface HostileHost {
  readonly ready: ReadyLine;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** True while the host process has not exited. */
  alive(): boolean;
  /** Everything the host wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** The result of one `orca` run. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh temporary directory for one test. */
export function tempRoot(prefix = 'orca-hostile-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Spawns the real `orca` CLI with `args` and resolves when it exits. */
export function runOrca(
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, ...args], {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orca ${args.join(' ')} did not exit; stdout: ${stdout}; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Spawns `orca --json --data-dir DIR start …extra` and resolves once it printed its ready line. */
export function startHostileHost(
  dataDir: string,
  extra: readonly string[] = [],
  opts: { env?: NodeJS.ProcessEnv } = {},
): Promise<HostileHost> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--json', '--data-dir', dataDir, 'start', ...extra],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } },
    );
    let stdout = '';
    let stderr = '';
    let exitedCode: number | null | undefined;
    const exited = new Promise<number | null>((r) =>
      child.on('exit', (code) => {
        exitedCode = code;
        r(code);
      }),
    );
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orca start never became ready: ${stderr}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      clearTimeout(timer);
      const { ready } = JSON.parse(line) as { ready: ReadyLine };
      resolve({
        ready,
        dataDir,
        child,
        alive: () => exitedCode === undefined,
        stderr: () => stderr,
        // Why: the PTY keeper outlives the host on purpose; a test ends it (and its panes) with the host.
        stop: async () => {
          if (exitedCode === undefined) child.kill('SIGTERM');
          const code = await exited;
          await endKeeper(dataDir);
          return code;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`orca start exited ${code}: ${stderr}`));
    });
  });
}
