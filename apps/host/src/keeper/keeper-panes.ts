import { type AttachResult, KeeperCallError, type KeeperClient, type KeptExit } from '@orca/keeper';
import { KEEPER_ATTACH_ATTEMPTS, KEEPER_RELINK_QUEUE_MAX_CHARS } from '../constants.ts';
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
  /** The link once no reattach is under way (null: the keeper is gone). */
  linked(): Promise<KeeperClient | null>;
  /**
   * Attaches held pane `id` (taken over, not spawned) from its start and routes it to `proc`;
   * output that shares a read with the answer is held for it. Tried again on the new link when
   * the link drops meanwhile.
   */
  attachNew(id: string, proc: KeeperProcess): Promise<AttachResult>;
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
  /** Each reattach's number; an older one that finds a newer under way stops where it is. */
  let generation = 0;
  /** Resolves when the reattach under way ends (with the link, or null: the keeper is gone). */
  let relinked: Promise<KeeperClient | null> | null = null;
  const queued: Queued[] = [];
  let queuedChars = 0;
  /** Panes whose input past the bound was dropped: their later input is dropped too (no holes). */
  const droppedFor = new Set<string>();
  let dropped = 0;
  const resetQueue = (): void => {
    queued.length = 0;
    queuedChars = 0;
    droppedFor.clear();
    dropped = 0;
  };

  /** Hands what was held for `id` (after the answer that let it flow) to `proc`, and stops holding. */
  const handOverHeld = (id: string, proc: KeeperProcess, exit?: KeptExit): void => {
    const held = early.get(id);
    early.delete(id);
    for (const e of held?.chunks ?? []) proc.data(e.chunk, e.to);
    const end = exit ?? held?.exit;
    if (end) proc.exit({ code: end.code, signal: end.signal });
  };
  const endAll = (why: string): void => {
    o.log.error({ why }, 'the PTY keeper went away: its panes end (keeper-died)');
    for (const proc of [...processes.values()]) proc.exit({ code: null, signal: null, cause: 'keeper-died' });
  };
  const isLinkError = (error: unknown): boolean => error instanceof KeeperCallError && error.code.startsWith('link_');
  const relink = async (why: string, gen: number): Promise<KeeperClient | null> => {
    o.log.warn({ why }, 'the link to the PTY keeper dropped; attaching again');
    const next = await (o.relink?.() ?? Promise.resolve(null)).catch(() => null);
    if (gen !== generation) {
      next?.close();
      return null;
    }
    if (!next || o.detached()) {
      next?.close();
      relinking = false;
      resetQueue();
      if (!o.detached()) endAll(why);
      return null;
    }
    link = next;
    listen(next);
    const ids = [...processes.keys()];
    // Why: every pane's output and exit are held from here until its own attach answers (the keeper
    // tells exits of panes not attached yet); each slice then goes first.
    for (const id of ids) early.set(id, { chunks: [], exit: null });
    let ended = 0;
    for (const id of ids) {
      const proc = processes.get(id);
      if (!proc) {
        early.delete(id);
        continue;
      }
      try {
        const slice = await next.attach(id, proc.position() ?? 0);
        if (gen !== generation) return null;
        proc.data(slice.data, slice.to);
        handOverHeld(id, proc, slice.exit);
        if (processes.has(id) && proc.paused()) next.flow(id, true);
      } catch (error) {
        // Why: the link failed again, a newer reattach runs, or the host is stopping: the panes
        // are left to whoever comes next, never ended while their agents may run.
        if (gen !== generation || o.detached() || isLinkError(error)) return null;
        const held = early.get(id);
        early.delete(id);
        ended += 1;
        if (held?.exit) proc.exit({ code: held.exit.code, signal: held.exit.signal });
        else {
          o.log.error({ err: error, id }, 'the keeper no longer holds a pane; it ends (keeper-died)');
          proc.exit({ code: null, signal: null, cause: 'keeper-died' });
        }
      }
    }
    for (const q of queued.splice(0)) {
      if (q.kind === 'write') next.write(q.id, q.data);
      else q.send(next);
    }
    o.log.info({ panes: processes.size, ended, droppedInput: dropped }, 'attached to the PTY keeper again');
    resetQueue();
    relinking = false;
    return next;
  };
  const startRelink = (why: string): void => {
    generation += 1;
    relinking = true;
    const run = relink(why, generation).catch((error: unknown) => {
      o.log.error({ err: error }, 'attaching to the PTY keeper again failed');
      relinking = false;
      resetQueue();
      if (!o.detached()) endAll(why);
      return null;
    });
    relinked = run;
  };
  /** The link once no reattach is under way (null: the keeper is gone). */
  const linked = async (): Promise<KeeperClient | null> => {
    for (let turns = 0; relinking && relinked && turns < 5; turns += 1) await relinked;
    return link.closed ? null : link;
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
      startRelink(why);
    });
  };
  listen(first);

  const enqueue = (q: Queued, chars: number): void => {
    // Why: bounded; input past the bound while the keeper is unreachable is dropped and counted,
    // and so is the pane's later input (a submit key must not go without the text before it).
    if (q.kind === 'write' && (droppedFor.has(q.id) || queuedChars + chars > KEEPER_RELINK_QUEUE_MAX_CHARS)) {
      droppedFor.add(q.id);
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
        handOverHeld(id, proc);
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
  const attachNew = async (id: string, proc: KeeperProcess): Promise<AttachResult> => {
    for (let attempt = 0; ; attempt += 1) {
      const client = await linked();
      if (!client) throw new KeeperCallError('link_closed', 'the PTY keeper is gone');
      early.set(id, { chunks: [], exit: null });
      try {
        const slice = await client.attach(id, 0);
        register(id, proc);
        handOverHeld(id, proc);
        return slice;
      } catch (error) {
        if (!isLinkError(error) || attempt >= KEEPER_ATTACH_ATTEMPTS - 1 || o.detached()) throw error;
      } finally {
        early.delete(id);
      }
    }
  };
  return { spawner, register, sink, current: () => link, linked, attachNew };
}
