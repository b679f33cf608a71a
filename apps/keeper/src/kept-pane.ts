import pty from 'node-pty';
import { OutputRing } from './output-ring.ts';
import { ModeTracker } from './terminal-modes.ts';

/** How a kept pane's process ended. */
export interface KeptExit {
  readonly code: number | null;
  readonly signal: number | null;
  readonly at: number;
}

/** What a host is told about a kept pane (`keeper.hello`). */
export interface KeptPaneInfo {
  readonly id: string;
  readonly pid: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly cols: number;
  readonly rows: number;
  readonly startedAt: number;
  /** Output so far (UTF-16 units). */
  readonly position: number;
  readonly exit?: KeptExit;
}

/** What the keeper spawns. */
export interface KeptPaneSpec {
  readonly id: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

/** One PTY the keeper holds: the process, its output ring and the modes it set. */
export interface KeptPane {
  readonly id: string;
  info(): KeptPaneInfo;
  readonly ring: OutputRing;
  readonly modes: ModeTracker;
  readonly exit: KeptExit | null;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
  /** Flow control: the host asks (its emulator is behind), or the link is backpressured. */
  setPaused(by: 'host' | 'link', paused: boolean): void;
}

/**
 * Spawns `spec` in a PTY and keeps its output: every chunk goes into the ring and the mode
 * tracker, then to `onData` (the attached host, if any); the exit to `onExit`. Throws what
 * node-pty throws when the program cannot start.
 */
export function spawnKeptPane(
  spec: KeptPaneSpec,
  now: () => number,
  onData: (pane: KeptPane, data: string, to: number) => void,
  onExit: (pane: KeptPane) => void,
): KeptPane {
  const child = pty.spawn(spec.file, [...spec.args], {
    name: 'xterm-256color',
    cols: spec.cols,
    rows: spec.rows,
    cwd: spec.cwd,
    env: { ...spec.env },
  });
  const ring = new OutputRing();
  const modes = new ModeTracker();
  const startedAt = now();
  let cols = spec.cols;
  let rows = spec.rows;
  let exit: KeptExit | null = null;
  const pausedBy = new Set<'host' | 'link'>();
  const pane: KeptPane = {
    id: spec.id,
    ring,
    modes,
    get exit() {
      return exit;
    },
    info: () => ({
      id: spec.id,
      pid: child.pid,
      file: spec.file,
      args: spec.args,
      cwd: spec.cwd,
      cols,
      rows,
      startedAt,
      position: ring.position,
      ...(exit ? { exit } : {}),
    }),
    write(data) {
      if (!exit) child.write(data);
    },
    resize(c, r) {
      if (exit) return;
      cols = c;
      rows = r;
      child.resize(c, r);
    },
    kill(signal) {
      if (exit) return;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    },
    setPaused(by, paused) {
      if (exit) return;
      const before = pausedBy.size > 0;
      if (paused) pausedBy.add(by);
      else pausedBy.delete(by);
      const after = pausedBy.size > 0;
      if (after && !before) child.pause();
      else if (!after && before) child.resume();
    },
  };
  child.onData((data) => {
    modes.push(data);
    const to = ring.append(data);
    onData(pane, data, to);
  });
  child.onExit(({ exitCode, signal }) => {
    exit = { code: signal ? null : exitCode, signal: signal ? signal : null, at: now() };
    onExit(pane);
  });
  return pane;
}
