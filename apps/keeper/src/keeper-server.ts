import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createRelayChannel, type RelayChannel } from '@orca/wire/relay-frames';
import {
  EXITED_KEPT_MAX,
  EXITED_RING_MAX_CHARS,
  KEEPER_CAPABILITIES,
  KEEPER_DEAD_AFTER_MS,
  KEEPER_DIR_MODE,
  KEEPER_IDLE_EXIT_MS,
  KEEPER_KEEPALIVE_MS,
  KEEPER_MAX_CONNECTIONS,
  KEEPER_MAX_PAYLOAD_BYTES,
  KEEPER_PROTOCOL_VERSION,
  KEEPER_VERSION,
  WELCOME_MAX_BYTES,
} from './constants.ts';
import { KeeperError, KeeperRefusal } from './errors.ts';
import { claimKeeperFile, pidAlive, processStartTime } from './keeper-claim.ts';
import { KEPT_EXITS_FILE, writeKeptExits } from './kept-exits.ts';
import { type KeptExit, type KeptPane, type KeptPaneInfo, spawnKeptPane } from './kept-pane.ts';
import {
  AttachParams,
  type AttachResult,
  FlowParams,
  HelloParams,
  IdParams,
  KEEPER_EVENTS,
  KEEPER_METHODS,
  type KeeperWelcome,
  KillParams,
  ResizeParams,
  SpawnParams,
  WriteParams,
} from './protocol.ts';
import { createVacancyClaim } from './vacancy-claim.ts';

/** Options of {@link startKeeper}. */
export interface KeeperOptions {
  /** The keeper's own directory (`<data-dir>/keeper`, 0700): `keeper.json` lives here. */
  readonly stateDir: string;
  /** The Unix socket to listen on (0600); the host picks it (it may not fit in the state dir). */
  readonly socket: string;
  readonly now?: () => number;
  /** Exit when no pane lives and no host is attached for this long (ms); 0 never. */
  readonly idleExitMs?: number;
  /** Called once the keeper closed (idle, `keeper.stop`, a signal); the CLI exits the process. */
  readonly onClosed?: (why: string) => void;
  readonly log?: (line: string) => void;
}

/** A running keeper. */
export interface Keeper {
  readonly socket: string;
  readonly pid: number;
  panes(): readonly KeptPane[];
  /** Kills every pane (SIGHUP, then SIGKILL after `graceMs`) and closes. */
  close(opts?: { killPanes?: boolean; why?: string }): Promise<void>;
}

function parse<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } };
  },
  params: unknown,
): T {
  const r = schema.safeParse(params);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new KeeperRefusal('bad_params', `bad params: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return r.data;
}

/**
 * Starts a keeper: claims `keeper.json` in the state dir (one keeper per data dir), listens on the
 * socket (0600) and holds PTYs for one attached host at a time. A host that goes away (closes,
 * crashes, is killed) leaves every pane running; its output fills each pane's ring until a host
 * attaches again.
 *
 * @example
 * const keeper = await startKeeper({ stateDir: '/d/keeper', socket: '/d/keeper/keeper.sock' });
 */
export async function startKeeper(opts: KeeperOptions): Promise<Keeper> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  try {
    mkdirSync(opts.stateDir, { recursive: true, mode: KEEPER_DIR_MODE });
    chmodSync(opts.stateDir, KEEPER_DIR_MODE);
  } catch (cause) {
    throw new KeeperError('ORCA_KEEPER_STATE_DIR', `cannot use ${opts.stateDir}: ${(cause as Error).message}`, {
      cause,
    });
  }
  const procStart = processStartTime(process.pid);
  const release = claimKeeperFile(join(opts.stateDir, 'keeper.json'), {
    pid: process.pid,
    socket: opts.socket,
    protocol: KEEPER_PROTOCOL_VERSION,
    version: KEEPER_VERSION,
    startedAt: now(),
    ...(procStart !== null ? { procStart } : {}),
  });
  const panes = new Map<string, KeptPane>();
  /** Panes whose output goes to the host (it attached them on this link). */
  const attached = new Set<string>();
  let host: { channel: RelayChannel; pid: number } | null = null;
  /** What to claim while no host is attached (from the last host's hello). */
  let vacancy: { path: string; content: Record<string, unknown> } | null = null;
  const claim = createVacancyClaim();
  let closed = false;
  let idleSince = now();

  const live = (): number => [...panes.values()].filter((p) => p.exit === null).length;
  const toHost = (method: string, params: unknown): void => {
    if (!host || host.channel.disposed) return;
    host.channel.notify(method, params);
    if (!host.channel.writable) for (const p of panes.values()) p.setPaused('link', true);
  };
  const onData = (pane: KeptPane, data: string, to: number): void => {
    if (attached.has(pane.id)) toHost(KEEPER_EVENTS.data, { id: pane.id, to, data });
  };
  const onExit = (pane: KeptPane): void => {
    log(`pane ${pane.id} exited ${JSON.stringify(pane.exit)}`);
    // Why: an ended pane is never taken over again; its last screen is all a host may still want.
    pane.ring.shrink(EXITED_RING_MAX_CHARS);
    toHost(KEEPER_EVENTS.exit, { id: pane.id, ...pane.exit });
    // Why: with no pane left to protect, a vacancy claim would only keep a host from starting.
    if (host === null && live() === 0) {
      stopHolding();
      claim.drop();
    }
    const exited = [...panes.values()].filter((p) => p.exit !== null);
    // Why: exits a host never collected are kept for the next one, within a bound.
    for (const old of exited.slice(0, Math.max(0, exited.length - EXITED_KEPT_MAX))) panes.delete(old.id);
  };
  let holding: ReturnType<typeof setInterval> | null = null;
  const stopHolding = (): void => {
    if (holding) clearInterval(holding);
    holding = null;
  };
  const holdVacancy = (v: { path: string; content: Record<string, unknown> }): void => {
    stopHolding();
    let holdingNow = false;
    // Why: kept up while no host is attached, not only until first taken: a host that took the
    // claim over and died before its hello leaves it stale, and the agents unguarded.
    const attempt = (): void => {
      if (host !== null || closed || live() === 0) {
        stopHolding();
        return;
      }
      const ours = claim.take(v.path, v.content);
      if (ours && !holdingNow) log(`holding ${v.path} while no host is attached`);
      holdingNow = ours;
    };
    holding = setInterval(attempt, 250);
    holding.unref();
    attempt();
  };
  const requireHost = (channel: RelayChannel): void => {
    if (host?.channel !== channel) throw new KeeperRefusal('not_attached', 'say keeper.hello first');
  };
  const paneOf = (id: string): KeptPane => {
    const pane = panes.get(id);
    if (!pane) throw new KeeperRefusal('pane_unknown', `no pane ${id} in this keeper`);
    return pane;
  };

  const sockets = new Set<Socket>();
  const serve = (socket: Socket): void => {
    // Why: one host at a time needs one link (two while a new one replaces a dead one); a client
    // that opens many must not cost the keeper memory or descriptors its panes need.
    if (sockets.size >= KEEPER_MAX_CONNECTIONS) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const channel = createRelayChannel({
      write: (bytes) => socket.write(bytes),
      policy: 'close',
      keepaliveMs: KEEPER_KEEPALIVE_MS,
      deadAfterMs: KEEPER_DEAD_AFTER_MS,
      maxPayloadBytes: KEEPER_MAX_PAYLOAD_BYTES,
    });
    socket.on('data', (chunk: Buffer) => channel.receive(new Uint8Array(chunk)));
    socket.on('drain', () => {
      channel.drained();
      if (host?.channel === channel) for (const p of panes.values()) p.setPaused('link', false);
    });
    socket.on('error', () => channel.dispose());
    socket.on('close', () => channel.dispose());
    channel.onDispose((reason) => {
      socket.destroy();
      if (host?.channel === channel) {
        log(`host ${host.pid} detached (${reason.code})`);
        host = null;
        attached.clear();
        idleSince = now();
        // Why: the host's process may still be exiting; its claim is taken once its pid is gone.
        if (vacancy && live() > 0) holdVacancy(vacancy);
        for (const p of panes.values()) p.setPaused('link', false);
        // Why: a pause the host asked for would stall the agent while nobody reads it.
        for (const p of panes.values()) p.setPaused('host', false);
      }
    });
    channel.onRequest(KEEPER_METHODS.hello, (params): KeeperWelcome => {
      const p = parse(HelloParams, params);
      if (p.protocol !== KEEPER_PROTOCOL_VERSION) {
        throw new KeeperRefusal(
          'protocol_mismatch',
          `this keeper (orca-keeper ${KEEPER_VERSION}, pid ${process.pid}) speaks keeper protocol ${KEEPER_PROTOCOL_VERSION}, the host ${p.protocol}`,
        );
      }
      // Why: the attached host itself, saying hello on a new link (its old one dropped in a stall),
      // takes over at once instead of waiting for the keeper to notice the old link is dead.
      if (host && host.channel !== channel && !host.channel.disposed && host.pid !== p.host.pid && pidAlive(host.pid)) {
        throw new KeeperRefusal('keeper_busy', `another host (pid ${host.pid}) is attached to this keeper`);
      }
      host?.channel.dispose();
      host = { channel, pid: p.host.pid };
      vacancy = p.vacancy ? { path: p.vacancy.path, content: p.vacancy.content } : null;
      stopHolding();
      claim.drop();
      attached.clear();
      log(`host ${p.host.pid} (${p.host.version}) attached`);
      return {
        protocol: KEEPER_PROTOCOL_VERSION,
        version: KEEPER_VERSION,
        pid: process.pid,
        capabilities: [...KEEPER_CAPABILITIES],
        panes: welcomePanes([...panes.values()].map((pane) => pane.info())),
      };
    });
    channel.onRequest(KEEPER_METHODS.spawn, (params) => {
      requireHost(channel);
      const spec = parse(SpawnParams, params);
      if (panes.has(spec.id)) throw new KeeperRefusal('pane_exists', `pane ${spec.id} exists`);
      let pane: KeptPane;
      try {
        pane = spawnKeptPane(spec, now, onData, onExit);
      } catch (error) {
        throw new KeeperRefusal('spawn_failed', `cannot start ${spec.file}: ${(error as Error).message}`);
      }
      panes.set(spec.id, pane);
      attached.add(spec.id);
      log(`pane ${spec.id} spawned pid ${pane.info().pid}`);
      return { pid: pane.info().pid };
    });
    channel.onRequest(KEEPER_METHODS.attach, (params): AttachResult => {
      requireHost(channel);
      const p = parse(AttachParams, params);
      const pane = paneOf(p.id);
      // Why: synchronous from the slice to the subscription, so no output falls between them.
      const slice = pane.ring.since(p.from, p.maxChars);
      // Why: a page short of the end is not yet a subscription; the host asks for the rest first.
      if (!slice.more) attached.add(p.id);
      return { ...slice, modes: pane.modes.active(), ...(pane.exit ? { exit: pane.exit } : {}) };
    });
    channel.onRequest(KEEPER_METHODS.forget, (params) => {
      requireHost(channel);
      const p = parse(IdParams, params);
      const pane = panes.get(p.id);
      if (!pane || pane.exit === null) return { forgotten: false };
      panes.delete(p.id);
      attached.delete(p.id);
      return { forgotten: true };
    });
    channel.onRequest(KEEPER_METHODS.stop, () => {
      requireHost(channel);
      setImmediate(() => void keeper.close({ killPanes: true, why: 'keeper.stop' }));
      return { stopping: true };
    });
    const notification = (method: string, act: (params: unknown) => void): void =>
      channel.onNotification(method, (params) => {
        if (host?.channel !== channel) return;
        try {
          act(params);
        } catch (error) {
          log(`${method} ignored: ${(error as Error).message}`);
        }
      });
    notification(KEEPER_METHODS.write, (params) => {
      const p = parse(WriteParams, params);
      panes.get(p.id)?.write(p.data);
    });
    notification(KEEPER_METHODS.resize, (params) => {
      const p = parse(ResizeParams, params);
      panes.get(p.id)?.resize(p.cols, p.rows);
    });
    notification(KEEPER_METHODS.kill, (params) => {
      const p = parse(KillParams, params);
      panes.get(p.id)?.kill(p.signal);
    });
    notification(KEEPER_METHODS.flow, (params) => {
      const p = parse(FlowParams, params);
      panes.get(p.id)?.setPaused('host', p.paused);
    });
    channel.start();
  };

  try {
    unlinkSync(opts.socket);
  } catch {
    // no stale socket
  }
  const server: Server = createServer(serve);
  // Why: the socket file is created 0600 (umask), not chmod-ed after a window where others could connect.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (cause) {
    release();
    throw new KeeperError('ORCA_KEEPER_LISTEN', `cannot listen on ${opts.socket}: ${(cause as Error).message}`, {
      cause,
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(opts.socket, 0o600);
  // Why: an error on the listening socket after it listens (EMFILE on accept) must not end the keeper.
  server.on('error', (error) => log(`listening socket error: ${error.message}`));
  log(`keeper ${process.pid} listening on ${opts.socket}`);

  const idleExitMs = opts.idleExitMs ?? KEEPER_IDLE_EXIT_MS;
  const idleTimer =
    idleExitMs > 0
      ? setInterval(
          () => {
            if (host !== null || live() > 0) idleSince = now();
            else if (now() - idleSince >= idleExitMs) void keeper.close({ why: 'idle' });
          },
          Math.min(idleExitMs, 5_000),
        )
      : null;
  idleTimer?.unref();

  const keeper: Keeper = {
    socket: opts.socket,
    pid: process.pid,
    panes: () => [...panes.values()],
    async close(o = {}) {
      if (closed) return;
      closed = true;
      if (idleTimer) clearInterval(idleTimer);
      stopHolding();
      claim.drop();
      if (o.why === 'idle') {
        const uncollected = new Map<string, KeptExit>();
        for (const p of panes.values()) if (p.exit) uncollected.set(p.id, p.exit);
        try {
          writeKeptExits(join(opts.stateDir, KEPT_EXITS_FILE), uncollected);
        } catch (error) {
          log(`could not record ${uncollected.size} uncollected exits: ${(error as Error).message}`);
        }
      }
      if (o.killPanes) {
        const running = [...panes.values()].filter((p) => p.exit === null);
        for (const p of running) p.kill('SIGHUP');
        const deadline = Date.now() + 1_000;
        while (Date.now() < deadline && running.some((p) => p.exit === null))
          await new Promise((r) => setTimeout(r, 50));
        for (const p of running) p.kill('SIGKILL');
      }
      host?.channel.dispose();
      // Why: server.close waits for every connection; a client that never hangs up must not hold it open.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      try {
        unlinkSync(opts.socket);
      } catch {
        // gone already
      }
      release();
      log(`keeper closed (${o.why ?? 'close'})`);
      opts.onClosed?.(o.why ?? 'close');
    },
  };
  return keeper;
}

/**
 * The panes a welcome lists. Why: a welcome past the frame limit would cut the link it answers;
 * when the panes' command lines are that large, their arguments are left out (a host settles and
 * takes panes over by id, pid, size and exit; the arguments are only shown).
 */
function welcomePanes(infos: KeptPaneInfo[]): KeptPaneInfo[] {
  let bytes = 0;
  for (const info of infos) bytes += Buffer.byteLength(JSON.stringify(info));
  return bytes <= WELCOME_MAX_BYTES ? infos : infos.map((info) => ({ ...info, args: [] }));
}
