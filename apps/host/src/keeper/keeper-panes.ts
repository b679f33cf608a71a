import { KeeperCallError, type KeeperClient, type KeptExit } from '@orca/keeper';
import { KEEPER_RELINK_QUEUE_MAX_CHARS } from '../constants.ts';
import { HostError } from '../errors.ts';
import type { PaneProcess, PaneSpawner } from '../panes/pane-process.ts';
import type { HostLogger } from '../runtime/logger.ts';
import { type KeeperProcess, type KeeperSink, keeperProcess } from './keeper-process.ts';

/** The panes of one keeper link, as the host sees them. */
export interface KeeperPanes {
  /** Starts new panes in the keeper; each one's output is held until its owner calls `ready(0)`. */
  readonly spawner: PaneSpawner;
  /** Routes the output and exit of held pane `id` (taken over, not spawned) to `proc`. */
  register(id: string, proc: KeeperProcess): void;
  /** Input and controls for the keeper: to the current link, queued while it is being reattached. */
  readonly sink: KeeperSink;
  /** The link in use now (another one after a reattach). */
  current(): KeeperClient;
}

type Queued = { kind: 'write'; id: string; data: string } | { kind: 'other'; send: (link: KeeperClient) => void };

/**
 * Routes a keeper link's output and exit events to the pane processes of this host. When the link
 * drops while the host has not `detached()`, `relink` is asked for a new one (the keeper may live:
 * the host's event loop stalled past the dead-link timeout). With one, every pane is attached again
 * from the position it had, so nothing is lost or doubled, and input typed meanwhile is sent; with
 * none (the keeper is gone) every pane ends with cause `keeper-died`.
 */
export function keeperPanes(
  first: KeeperClient,
  o: { log: HostLogger; detached: () => boolean; relink?: () => Promise<KeeperClient | null> },
): KeeperPanes {
  const processes = new Map<string, KeeperProcess>();
  /**
   * Output and exit of a pane whose spawn or attach answer has not been read yet (the keeper streams
   * at once), handed over after the answer.
   */
  const early = new Map<string, { chunks: { chunk: string; to: number }[]; exit: KeptExit | null }>();
  let link = first;
  let relinking = false;
  const queued: Queued[] = [];
  let queuedChars = 0;
  let dropped = 0;

  const endAll = (why: string): void => {
    o.log.error({ why }, 'the PTY keeper went away: its panes end (keeper-died)');
    for (const proc of [...processes.values()]) proc.exit({ code: null, signal: null, cause: 'keeper-died' });
  };
  const relink = async (why: string): Promise<void> => {
    relinking = true;
    o.log.warn({ why }, 'the link to the PTY keeper dropped; attaching again');
    const next = await (o.relink?.() ?? Promise.resolve(null)).catch(() => null);
    if (!next || o.detached()) {
      next?.close();
      relinking = false;
      queued.length = 0;
      if (!o.detached()) endAll(why);
      return;
    }
    link = next;
    listen(next);
    let ended = 0;
    for (const [id, proc] of [...processes]) {
      // Why: live output that follows the answer in the same read is handled before this resumes;
      // it is held so the slice goes first.
      early.set(id, { chunks: [], exit: null });
      try {
        const slice = await next.attach(id, proc.position() ?? 0);
        proc.data(slice.data, slice.to);
        const held = early.get(id);
        for (const e of held?.chunks ?? []) proc.data(e.chunk, e.to);
        const exit = slice.exit ?? held?.exit;
        if (exit) proc.exit({ code: exit.code, signal: exit.signal });
      } catch (error) {
        ended += 1;
        o.log.error({ err: error, id }, 'a kept pane could not be attached again; it ends (keeper-died)');
        proc.exit({ code: null, signal: null, cause: 'keeper-died' });
      } finally {
        early.delete(id);
      }
    }
    for (const q of queued.splice(0)) {
      if (q.kind === 'write') next.write(q.id, q.data);
      else q.send(next);
    }
    queuedChars = 0;
    relinking = false;
    o.log.info({ panes: processes.size, ended, droppedInput: dropped }, 'attached to the PTY keeper again');
    dropped = 0;
  };
  const listen = (client: KeeperClient): void => {
    client.onData((id, data, to) => {
      const held = early.get(id);
      if (held) held.chunks.push({ chunk: data, to });
      else processes.get(id)?.data(data, to);
    });
    client.onExit((id, exit) => {
      const held = early.get(id);
      if (held) held.exit = exit;
      else processes.get(id)?.exit({ code: exit.code, signal: exit.signal });
    });
    client.onClose((why) => {
      if (o.detached() || client !== link) return;
      void relink(why).catch((error: unknown) => {
        o.log.error({ err: error }, 'attaching to the PTY keeper again failed');
        endAll(why);
      });
    });
  };
  listen(first);

  const enqueue = (q: Queued, chars: number): void => {
    // Why: bounded; input past the bound while the keeper is unreachable is dropped and counted.
    if (queuedChars + chars > KEEPER_RELINK_QUEUE_MAX_CHARS) {
      dropped += chars;
      return;
    }
    queuedChars += chars;
    queued.push(q);
  };
  const sink: KeeperSink = {
    get closed() {
      return link.closed && !relinking;
    },
    write(id, data) {
      if (relinking) enqueue({ kind: 'write', id, data }, data.length);
      else if (!link.closed) link.write(id, data);
    },
    resize(id, cols, rows) {
      if (relinking) enqueue({ kind: 'other', send: (l) => l.resize(id, cols, rows) }, 0);
      else if (!link.closed) link.resize(id, cols, rows);
    },
    kill(id, signal) {
      if (relinking) enqueue({ kind: 'other', send: (l) => l.kill(id, signal) }, 0);
      else if (!link.closed) link.kill(id, signal);
    },
    flow(id, paused) {
      if (relinking) enqueue({ kind: 'other', send: (l) => l.flow(id, paused) }, 0);
      else if (!link.closed) link.flow(id, paused);
    },
  };

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
          relinking
            ? 'the link to the PTY keeper is being attached again; try again in a moment'
            : 'the PTY keeper is gone; restart the host (`orca start`) to start a new one',
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
        const proc = keeperProcess(sink, id, pid);
        register(id, proc);
        // Why: held until the pane listens (its owner calls `ready(0)`): a quick program's first
        // output may come before the spawn answer, and nothing listens yet when this returns.
        const held = early.get(id);
        for (const e of held?.chunks ?? []) proc.data(e.chunk, e.to);
        if (held?.exit) proc.exit({ code: held.exit.code, signal: held.exit.signal });
        return proc;
      } catch (error) {
        // Why: a spawn whose answer never came (timeout, dropped link) may still have started the
        // program; the kill follows the request on the same link, so it cannot run hidden.
        if (!(error instanceof KeeperCallError && error.code === 'pane_exists')) sink.kill(id, 'SIGKILL');
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
  return { spawner, register, sink, current: () => link };
}
