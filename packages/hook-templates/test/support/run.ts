import { spawn } from 'node:child_process';

/** Outcome of one real process run. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The writer saw EPIPE (the child closed stdin unread). */
  epipe: boolean;
  /** Some other stdin write error. */
  writeError?: string;
}

/** Options of {@link runProcess}. */
export interface RunOptions {
  env: Record<string, string>;
  input?: Buffer | string;
  /** Keep stdin open after writing (no EOF) until the process exits. */
  holdStdin?: boolean;
  cwd?: string;
  /** Harness kill bound (liveness, not a timing assertion), ms. */
  killAfterMs?: number;
  /** Resolve on process exit (wine: a spawned wineserver may inherit and hold stdout open). */
  resolveOnExit?: boolean;
}

/** Spawns argv, writes `input` in one write, then closes stdin (unless held). */
export function runProcess(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
  const [cmd, ...args] = argv;
  if (cmd === undefined) throw new Error('empty argv');
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let epipe = false;
    let writeError: string | undefined;
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') epipe = true;
      else writeError = e.code ?? e.message;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 60_000);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        epipe,
        ...(writeError !== undefined ? { writeError } : {}),
      });
    };
    if (opts.resolveOnExit) {
      child.on('exit', (code, signal) =>
        setTimeout(() => {
          finish(code, signal);
          child.stdout.destroy();
          child.stderr.destroy();
          child.stdin.destroy();
        }, 300),
      );
    } else child.on('close', finish);
    if (opts.input !== undefined && opts.input.length > 0) child.stdin.write(opts.input);
    if (!opts.holdStdin) child.stdin.end();
  });
}

/** A minimal env: PATH + HOME, no ORCA_* inherited. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/root', LANG: 'C.UTF-8', ...extra };
}
