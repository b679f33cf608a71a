import type { KeeperClient, KeptExit } from '@orca/keeper';
import { HostError } from '../errors.ts';
import type { PaneProcess, PaneSpawner } from '../panes/pane-process.ts';
import type { HostLogger } from '../runtime/logger.ts';
import { type KeeperProcess, keeperProcess } from './keeper-process.ts';

/** The panes of one keeper link, as the host sees them. */
export interface KeeperPanes {
  /** Starts new panes in the keeper; each one's output is held until its owner calls `ready(0)`. */
  readonly spawner: PaneSpawner;
  /** Routes the output and exit of held pane `id` (taken over, not spawned) to `proc`. */
  register(id: string, proc: KeeperProcess): void;
}

/**
 * Routes a keeper link's output and exit events to the pane processes of this host, and ends them
 * all with cause `keeper-died` when the link drops while the host has not `detached()`.
 */
export function keeperPanes(link: KeeperClient, o: { log: HostLogger; detached: () => boolean }): KeeperPanes {
  const processes = new Map<string, KeeperProcess>();
  /** Output and exit of a pane whose spawn answer has not been read yet (the keeper streams at once). */
  const early = new Map<string, { chunks: { chunk: string; to: number }[]; exit: KeptExit | null }>();
  link.onData((id, data, to) => {
    const proc = processes.get(id);
    if (proc) proc.data(data, to);
    else early.get(id)?.chunks.push({ chunk: data, to });
  });
  link.onExit((id, exit) => {
    const proc = processes.get(id);
    if (proc) proc.exit({ code: exit.code, signal: exit.signal });
    else {
      const held = early.get(id);
      if (held) held.exit = exit;
    }
  });
  link.onClose((why) => {
    if (o.detached()) return;
    o.log.error({ why }, 'the PTY keeper went away: its panes end (keeper-died)');
    for (const proc of processes.values()) proc.exit({ code: null, signal: null, cause: 'keeper-died' });
  });
  const register = (id: string, proc: KeeperProcess): void => {
    processes.set(id, proc);
    proc.onExit(() => processes.delete(id));
  };
  const spawner: PaneSpawner = {
    kept: true,
    async spawn(id, opts): Promise<PaneProcess> {
      if (link.closed) {
        throw new HostError(
          'ORCA_HOST_PANE_SPAWN',
          'the PTY keeper is gone; restart the host (`orca start`) to start a new one',
        );
      }
      early.set(id, { chunks: [], exit: null });
      try {
        const { pid } = await link.spawn({
          id,
          file: opts.file,
          args: [...opts.args],
          cwd: opts.cwd,
          env: { ...opts.env },
          cols: opts.cols,
          rows: opts.rows,
        });
        const proc = keeperProcess(link, id, pid);
        register(id, proc);
        // Why: held until the pane listens (its owner calls `ready(0)`): a quick program's first
        // output may come before the spawn answer, and nothing listens yet when this returns.
        const held = early.get(id);
        for (const e of held?.chunks ?? []) proc.data(e.chunk, e.to);
        if (held?.exit) proc.exit({ code: held.exit.code, signal: held.exit.signal });
        return proc;
      } catch (error) {
        throw new HostError(
          'ORCA_HOST_PANE_SPAWN',
          `cannot start ${opts.file}: ${(error as Error).message}; check the command and --cwd`,
          {
            cause: error,
            context: { file: opts.file },
          },
        );
      } finally {
        early.delete(id);
      }
    },
  };
  return { spawner, register };
}
