import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const CLI_ENTRY = join(dirname(require.resolve('@orca/host/package.json')), 'src', 'cli.ts');
const TSX_CLI = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

/** argv that runs the real `orca` CLI from source with `args`. */
export function orcaArgv(args: readonly string[]): string[] {
  return [process.execPath, TSX_CLI, '--conditions=orca-source', CLI_ENTRY, ...args];
}

/** True when this machine lets us make a user + mount namespace (`unshare -rm`). */
export function canUnshareMount(): boolean {
  const r = require('node:child_process').spawnSync('unshare', ['-rm', 'true']) as { status: number | null };
  return r.status === 0;
}

/** Spawns `argv` and collects its output; `onStdout` sees each chunk. */
export function spawnCollect(
  argv: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; onStdout?: (all: string, child: ChildProcess) => void } = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    opts.onStdout?.(stdout, child);
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}
