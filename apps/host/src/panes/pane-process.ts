import pty from 'node-pty';
import { HostError } from '../errors.ts';

/** How a pane's process ended. */
export interface PaneExit {
  readonly code: number | null;
  readonly signal: number | null;
  /** Why it ended when the process did not end by itself (`keeper-died`: the PTY keeper went away). */
  readonly cause?: string;
}

/** Options of {@link spawnPaneProcess}. */
export interface PaneProcessOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

/** A pane's process: a real PTY here (node-pty) or one held by the PTY keeper. */
export interface PaneProcess {
  readonly pid: number;
  /** True when the process outlives this host (a PTY keeper holds it). */
  readonly kept?: boolean;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  /** Stops reading the PTY (the program blocks once the kernel buffer is full) until {@link resume}. */
  pause(): void;
  resume(): void;
  onData(listener: (chunk: string) => void): void;
  onExit(listener: (exit: PaneExit) => void): void;
  /**
   * Lets output and the exit flow from `position` on, once the owner listens (a kept pane holds
   * what came before). Absent where output flows from the start.
   */
  ready?(position: number): void;
}

/**
 * Spawns `file args` in a new PTY. Throws `ORCA_HOST_PANE_SPAWN` when the PTY cannot start.
 *
 * @example
 * const p = spawnPaneProcess({ file: '/bin/sh', args: [], cwd: '/', env: {}, cols: 80, rows: 24 });
 */
export function spawnPaneProcess(opts: PaneProcessOptions): PaneProcess {
  let child: pty.IPty;
  try {
    child = pty.spawn(opts.file, [...opts.args], {
      name: 'xterm-256color',
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: { ...opts.env },
    });
  } catch (cause) {
    throw new HostError(
      'ORCA_HOST_PANE_SPAWN',
      `cannot start ${opts.file} in a PTY: ${(cause as Error).message}; check the command and --cwd`,
      { cause, context: { file: opts.file } },
    );
  }
  let exited = false;
  child.onExit(() => {
    exited = true;
  });
  return {
    pid: child.pid,
    write(data) {
      if (!exited) child.write(data);
    },
    resize(cols, rows) {
      if (!exited) child.resize(cols, rows);
    },
    pause() {
      if (!exited) child.pause();
    },
    resume() {
      if (!exited) child.resume();
    },
    kill(signal) {
      if (exited) return;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    },
    onData(listener) {
      child.onData(listener);
    },
    onExit(listener) {
      child.onExit(({ exitCode, signal }) => {
        listener({ code: signal ? null : exitCode, signal: signal ? signal : null });
      });
    },
  };
}

/** How a host gets a pane's process: a PTY in its own process, or one from the PTY keeper. */
export interface PaneSpawner {
  /** True when panes outlive the host (stopping the host leaves them running). */
  readonly kept: boolean;
  /** Starts `opts` as pane `id`; rejects with `ORCA_HOST_PANE_SPAWN` when it cannot start. */
  spawn(id: string, opts: PaneProcessOptions): Promise<PaneProcess>;
}

/** Panes whose PTYs live in this host's process (they end with it). */
export const localPaneSpawner: PaneSpawner = {
  kept: false,
  spawn: async (_id, opts) => spawnPaneProcess(opts),
};
