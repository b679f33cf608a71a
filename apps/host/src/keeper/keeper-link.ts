import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  connectKeeper,
  KEPT_EXITS_FILE,
  KeeperCallError,
  type KeeperClient,
  type KeptExit,
  type KeptPaneInfo,
  keeperAlive,
  keeperCommand,
  modesReplay,
  pidAlive,
  readKeeperInfo,
  readKeptExits,
  removeKeptExits,
} from '@orca/keeper';
import { RUNTIME_PROTOCOL_VERSION } from '@orca/wire/compat';
import {
  APP_VERSION,
  DATA_DIR_MODE,
  DATA_FILE_MODE,
  KEEPER_RELINK_RETRY_MS,
  KEEPER_RELINK_TIMEOUT_MS,
  KEEPER_START_TIMEOUT_MS,
} from '../constants.ts';
import { HostError } from '../errors.ts';
import type { AdoptedPane } from '../panes/adopted-pane.ts';
import type { PaneSpawner } from '../panes/pane-process.ts';
import type { DataPaths } from '../runtime/data-dir.ts';
import type { HostLogger } from '../runtime/logger.ts';
import { keeperPanes } from './keeper-panes.ts';
import { keeperProcess } from './keeper-process.ts';

export type { AdoptedPane } from '../panes/adopted-pane.ts';

/** This host's link to the data dir's PTY keeper. */
export interface KeeperLink {
  readonly spawner: PaneSpawner;
  /** The panes the keeper held when this host attached. */
  readonly held: readonly KeptPaneInfo[];
  /** Panes that ended by themselves while no host was attached, left by a keeper that then exited idle. */
  readonly exitedWhileAway: ReadonlyMap<string, KeptExit>;
  /** True when this host started the keeper (so it held nothing from before). */
  readonly started: boolean;
  readonly keeperPid: number;
  adopt(info: KeptPaneInfo): Promise<AdoptedPane>;
  /** Lets the keeper drop an exited pane the host has recorded. */
  forget(id: string): void;
  /** Ends a pane no store knows (an orphan). */
  kill(id: string): void;
  /** Detaches: the panes keep running in the keeper. */
  detach(): void;
  /** Kills every pane and ends the keeper (`orca stop --all`). */
  stopKeeper(): Promise<void>;
}

function tail(path: string, chars = 600): string {
  try {
    return readFileSync(path, 'utf8').slice(-chars).trim();
  } catch {
    return '';
  }
}

/** Starts `orca-keeper` for `paths`, detached from this process (its log: `logs/keeper.log`, 0600). */
function launchKeeper(paths: DataPaths, env: Readonly<Record<string, string | undefined>>): number {
  mkdirSync(paths.keeperDir, { recursive: true, mode: DATA_DIR_MODE });
  const log = openSync(paths.keeperLog, 'a', DATA_FILE_MODE);
  try {
    const { file, args } = keeperCommand();
    const clean: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined && !/^ORCA_/i.test(k)) clean[k] = v;
    const child = spawn(file, [...args, '--state-dir', paths.keeperDir, '--socket', paths.keeperSocket], {
      detached: true,
      stdio: ['ignore', log, log],
      env: clean,
      cwd: paths.root,
    });
    child.unref();
    if (child.pid === undefined) throw new Error('the keeper process did not start');
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/**
 * A host that keeps PTYs in its own process would mark the panes of a running keeper exited
 * (host-restart) while their agents still run: refused with `ORCA_HOST_KEEPER`.
 */
export function refuseWhileKeeperRuns(paths: DataPaths): void {
  const info = readKeeperInfo(join(paths.keeperDir, 'keeper.json'));
  if (info && keeperAlive(info)) {
    throw new HostError(
      'ORCA_HOST_KEEPER',
      `the PTY keeper of ${paths.root} (pid ${info.pid}) runs; a host with --no-keeper would write its agents off: start without --no-keeper to take them over, or end them first with \`orca stop --all\``,
      { context: { pid: info.pid } },
    );
  }
}

/** True when `pid` is this data dir's keeper (its keeper.json), which may hold the host claim. */
export function keeperHoldsClaim(paths: DataPaths, pid: number): boolean {
  return readKeeperInfo(join(paths.keeperDir, 'keeper.json'))?.pid === pid;
}

async function connectAsHost(paths: DataPaths, socket: string): Promise<KeeperClient> {
  // Why: while no host runs, the keeper holds runtime.json (pid: its own) so a host that does not
  // know the keeper refuses to start instead of writing off panes that still run.
  return connectKeeper(socket, {
    pid: process.pid,
    version: APP_VERSION,
    vacancy: {
      path: paths.runtimeJson,
      content: {
        socket: paths.socket,
        protocolVersion: RUNTIME_PROTOCOL_VERSION,
        appVersion: `orca-keeper`,
        startedAt: Date.now(),
      },
    },
  });
}

/**
 * Finds the data dir's keeper (`keeper/keeper.json`) or starts one, and attaches to it as this
 * host. Refuses with `ORCA_HOST_KEEPER` when the keeper speaks another protocol, serves another
 * live host, or does not come up.
 */
export async function openKeeperLink(
  paths: DataPaths,
  o: { log: HostLogger; env?: Readonly<Record<string, string | undefined>> },
): Promise<KeeperLink> {
  const infoPath = join(paths.keeperDir, 'keeper.json');
  let client: KeeperClient | null = null;
  let started = false;
  const existing = readKeeperInfo(infoPath);
  const refuse = (error: unknown): never => {
    const code = error instanceof KeeperCallError ? error.code : 'link_failed';
    const what =
      code === 'protocol_mismatch'
        ? `; stop it with \`orca stop --all\` (its panes end) or run a host of its version`
        : code === 'keeper_busy'
          ? '; another host is attached to it'
          : '';
    throw new HostError(
      'ORCA_HOST_KEEPER',
      `the PTY keeper of ${paths.root} refused this host: ${(error as Error).message}${what}`,
      {
        cause: error,
        context: { code },
      },
    );
  };
  if (existing && keeperAlive(existing)) {
    try {
      client = await connectAsHost(paths, existing.socket);
    } catch (error) {
      if (!(error instanceof KeeperCallError) || !error.code.startsWith('link_')) refuse(error);
      o.log.warn({ pid: existing.pid, err: error }, 'the recorded keeper does not answer; starting another');
    }
  }
  if (!client) {
    const pid = launchKeeper(paths, o.env ?? process.env);
    started = true;
    const deadline = Date.now() + KEEPER_START_TIMEOUT_MS;
    let last: unknown = null;
    while (!client) {
      if (Date.now() > deadline || !pidAlive(pid)) {
        throw new HostError(
          'ORCA_HOST_KEEPER',
          `the PTY keeper did not start (pid ${pid}): ${(last as Error | null)?.message ?? 'no answer'}; its log ${paths.keeperLog}: ${tail(paths.keeperLog) || '(empty)'}`,
          { cause: last },
        );
      }
      const info = readKeeperInfo(infoPath);
      if (info?.pid === pid) {
        try {
          client = await connectAsHost(paths, info.socket);
        } catch (error) {
          if (error instanceof KeeperCallError && !error.code.startsWith('link_')) refuse(error);
          last = error;
        }
      }
      if (!client) await new Promise((r) => setTimeout(r, 50));
    }
    o.log.info({ pid, socket: paths.keeperSocket }, 'PTY keeper started');
  } else {
    o.log.info({ pid: client.welcome.pid, panes: client.welcome.panes.length }, 'attached to the running PTY keeper');
  }
  const keeperPid = client.welcome.pid;
  const attachedInfo = readKeeperInfo(infoPath);
  const socket = attachedInfo?.pid === keeperPid ? attachedInfo.socket : paths.keeperSocket;
  const procStart = attachedInfo?.pid === keeperPid ? attachedInfo.procStart : undefined;
  let detached = false;
  const relink = async (): Promise<KeeperClient | null> => {
    const deadline = Date.now() + KEEPER_RELINK_TIMEOUT_MS;
    while (!detached && Date.now() < deadline) {
      if (!pidAlive(keeperPid)) return null;
      try {
        return await connectAsHost(paths, socket);
      } catch (error) {
        // Why: a refusal (another protocol now, another host) will not change by retrying.
        if (error instanceof KeeperCallError && !error.code.startsWith('link_') && error.code !== 'keeper_busy') {
          o.log.error({ err: error }, 'the PTY keeper refused this host on its way back');
          return null;
        }
      }
      await new Promise((r) => setTimeout(r, KEEPER_RELINK_RETRY_MS));
    }
    return null;
  };
  const panes = keeperPanes(client, { log: o.log, detached: () => detached, relink });
  // Why: read once and removed; should this host die before recording them, those panes count as
  // lost with their keeper (resumable), the fail-open side.
  const exitsPath = join(paths.keeperDir, KEPT_EXITS_FILE);
  const exitedWhileAway = readKeptExits(exitsPath);
  removeKeptExits(exitsPath);
  return {
    spawner: panes.spawner,
    held: client.welcome.panes,
    exitedWhileAway,
    started,
    keeperPid,
    async adopt(info) {
      const proc = keeperProcess(panes.sink, info.id, info.pid);
      const slice = await panes.attachNew(info.id, proc);
      return {
        process: proc,
        // Why: a whole ring replays its own mode switches; only a cut one needs them stated first.
        replay: (slice.truncated ? modesReplay(slice.modes) : '') + slice.data,
        truncated: slice.truncated,
        cols: info.cols,
        rows: info.rows,
        to: slice.to,
        ...(slice.exit ? { exit: { code: slice.exit.code, signal: slice.exit.signal } } : {}),
      };
    },
    forget(id) {
      const link = panes.current();
      if (!link.closed) void link.forget(id).catch(() => undefined);
    },
    kill(id) {
      panes.sink.kill(id, 'SIGKILL');
    },
    detach() {
      detached = true;
      panes.current().close();
    },
    async stopKeeper() {
      // Why: asked on the link once a reattach under way is done; a keeper no link reaches is
      // ended with SIGTERM (it ends its panes the same way).
      const link = await panes.linked();
      detached = true;
      let asked = false;
      if (link && !link.closed)
        asked = await link.stopKeeper().then(
          () => true,
          () => false,
        );
      if (!asked && keeperAlive({ pid: keeperPid, ...(procStart ? { procStart } : {}) })) {
        try {
          process.kill(keeperPid, 'SIGTERM');
        } catch {
          // gone already
        }
      }
      panes.current().close();
    },
  };
}
