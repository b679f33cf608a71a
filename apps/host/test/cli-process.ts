import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endKeeper } from '@orca/testkit';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Path of the `orca` CLI entry (run from source through tsx: the real binary, no build). */
export const CLI_ENTRY = join(here, '..', 'src', 'cli.ts');
/** tsx's CLI (runs the TypeScript entry with the orca-source condition). */
export const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

/** The result of one `orca` run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the real `orca` CLI with `args` and resolves when it exits. */
export function runOrca(
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, ...args], {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
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

/** A long-running `orca start` child. */
export interface StartedHost {
  readonly ready: { dataDir: string; pid: number; hookPort: number; socket: string };
  /**
   * SIGTERM to the host process, then the exit code (of the tsx wrapper, which ends with it). The
   * PTY keeper is ended too unless `keeper: 'keep'` (the next host takes its panes over).
   */
  stop(opts?: { keeper?: 'keep' | 'end' }): Promise<number | null>;
  /** The exit code once the process ended (signal it yourself). */
  exited(): Promise<number | null>;
}

/** Spawns `orca --json --data-dir DIR start` and resolves once it printed its ready line. */
export function startOrca(dataDir: string, extra: readonly string[] = []): Promise<StartedHost> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, '--json', '--data-dir', dataDir, 'start', ...extra],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
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
      const { ready } = JSON.parse(line) as { ready: StartedHost['ready'] };
      resolve({
        ready,
        // Why: the host itself is signalled; tsx's relay SIGKILLs a child that does not report a
        // signal within 30 ms, which on a loaded machine turned a clean stop into exit 143.
        // Why: the PTY keeper outlives the host on purpose; a test ends it (and its panes) with the host.
        stop: async (o = {}) => {
          try {
            process.kill(ready.pid, 'SIGTERM');
          } catch {
            // already gone
          }
          const code = await exited;
          if (o.keeper !== 'keep') await endKeeper(dataDir);
          return code;
        },
        exited: () => exited,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`orca start exited ${code}: ${stderr}`));
    });
  });
}
