import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { connectRuntime, type PaneView, type RuntimeClient } from '@orca/host';
import type { AgentProfile } from '../agents/profile.ts';
import { SCREEN_POLL_MS } from '../limits.ts';
import type { LabRun } from './lab-run.ts';

const require = createRequire(import.meta.url);
/** The real `orca` CLI from source (found by its package name) and tsx, which runs it. */
const HOST_DIR = path.dirname(require.resolve('@orca/host/package.json'));
const CLI_ENTRY = path.join(HOST_DIR, 'src', 'cli.ts');
const TSX_CLI = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');

/** `orca …` as a real process of its own, with the lab's environment (PATH finds the agent). */
export function orcaArgv(args: readonly string[]): string[] {
  return [TSX_CLI, '--conditions=orca-source', CLI_ENTRY, ...args];
}

/** Runs `orca args…` to its end; returns its exit code and output. */
export function runOrcaSync(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, orcaArgv(args), { env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A running `orca start` process. */
export interface HostProcess {
  readonly pid: number;
  /** The ready line (`--json`), and the lines printed after it (a `--resume` report). */
  readonly ready: { dataDir: string; pid: number; keeperPid: number | null };
  readonly lines: () => string[];
  readonly child: ChildProcess;
  exited(): Promise<number | null>;
}

/** Starts `orca --json --data-dir DIR start [extra]` and resolves once it printed its ready line. */
export function startHostProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
): Promise<HostProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, orcaArgv(['--json', '--data-dir', dataDir, 'start', ...extra]), {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orca start never became ready: ${stderr}`));
    }, 60_000);
    let resolved = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (resolved) return;
      const line = stdout.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      resolved = true;
      clearTimeout(timer);
      const { ready } = JSON.parse(line) as { ready: HostProcess['ready'] };
      resolve({
        pid: ready.pid,
        ready,
        lines: () => stdout.split('\n').filter(Boolean),
        child,
        exited: () => exited,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!resolved) reject(new Error(`orca start exited ${code}: ${stderr}`));
    });
  });
}

/**
 * A pane of a host in another process, seen through the runtime RPC: its view is polled in the
 * background, so the lab's screen helpers (`reachIdle`, `selectOption`, the agents' screens) read
 * it as they read an in-process pane.
 */
export interface RemotePane {
  readonly handle: string;
  /** What the lab's helpers use of a run. */
  readonly run: LabRun;
  view(): PaneView;
  /** Re-reads the view now (the poll runs every `SCREEN_POLL_MS`). */
  refresh(): Promise<PaneView>;
  /** Points the poll at a new host process's socket (after a restart). */
  reconnect(dataDir: string): Promise<void>;
  client(): RuntimeClient;
  close(): void;
}

/** Follows pane `handle` of the host on `dataDir`. */
export async function followPane(dataDir: string, handle: string, profile: AgentProfile): Promise<RemotePane> {
  let client = await connectRuntime(dataDir);
  let view = await client.call('terminal.show', { handle });
  let closed = false;
  const refresh = async (): Promise<PaneView> => {
    view = await client.call('terminal.show', { handle });
    return view;
  };
  const poll = async (): Promise<void> => {
    while (!closed) {
      await refresh().catch(() => undefined);
      await new Promise((r) => setTimeout(r, SCREEN_POLL_MS));
    }
  };
  void poll();
  const screen = (): string[] => (view.tail ?? '').split('\n');
  const run = {
    handle,
    profile,
    screen,
    screenText: () => screen().join('\n'),
    view: () => view,
    press: (keys: string) => void client.call('terminal.send', { handle, text: keys }).catch(() => undefined),
    async waitForScreen(test: RegExp | ((text: string) => boolean), timeoutMs: number, what: string) {
      const ok = typeof test === 'function' ? test : (t: string) => test.test(t);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = (await refresh().catch(() => view)).tail ?? '';
        if (ok(text)) return;
        if (Date.now() > deadline)
          throw new Error(`${profile.build}: no ${what} within ${timeoutMs} ms; screen:\n${text}`);
        await new Promise((r) => setTimeout(r, SCREEN_POLL_MS));
      }
    },
  } as unknown as LabRun;
  return {
    handle,
    run,
    view: () => view,
    refresh,
    async reconnect(dir) {
      client.close();
      client = await connectRuntime(dir);
      await refresh();
    },
    client: () => client,
    close() {
      closed = true;
      client.close();
    },
  };
}

/**
 * The lab's environment for orca processes: PATH with the agent's command, HOME the agent's.
 * Why: built from scratch, as lab-run's in-process host does: the runner's own variables reach
 * the agents through the host and keeper otherwise, and `CI=true` alone turns Gemini CLI
 * non-interactive ("No input provided via stdin").
 */
export function labProcessEnv(bin: string, home: string): NodeJS.ProcessEnv {
  return {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    USER: process.env.USER ?? 'lab',
    LANG: 'C.UTF-8',
    SHELL: '/bin/sh',
    TMPDIR: os.tmpdir(),
  };
}

/** The keeper's pid of `dataDir`, from its `keeper/keeper.json` (null when none). */
export function keeperPidOf(dataDir: string): number | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dataDir, 'keeper', 'keeper.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null;
  }
}
