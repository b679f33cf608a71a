import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { guestBundle } from '@orca/relay/guest';
import type { RelayedEvent } from '@orca/relay/listener';
import {
  createRelayManager,
  enterArgv,
  type GuestHandle,
  type GuestView,
  type NetnsHolder,
  netnsSpawner,
  type RelayManager,
  sshDestination,
  sshSpawner,
  startNetnsHolder,
} from '@orca/relay/manager';
import { installHooks } from '../agent-hooks/install-hooks.ts';
import { succeeds } from '../agent-hooks/spool.ts';
import { DATA_DIR_MODE } from '../constants.ts';
import { HostError, refusal } from '../errors.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { Store } from '../store/store.ts';
import { agentsInGuest } from './guest-agents.ts';
import { guestInstallFs } from './guest-install-fs.ts';

/** Guest kinds this host can run. */
export type GuestKind = 'netns' | 'ssh';

/** A guest as listed by `orca guest ls`. */
export interface GuestInfo extends GuestView {
  name: string;
  home?: string;
  endpointPath?: string;
}

/** Options of {@link GuestRegistry.add}. */
export interface AddGuestOptions {
  /** ssh: `user@host[:port]`. */
  readonly target?: string;
  /** Skip installing managed hooks into the guest home. */
  readonly noHooks?: boolean;
  /** Agents whose hooks are installed (default: the agents found in the guest, see `agentsInGuest`). */
  readonly agents?: readonly string[];
  /** Extra ssh arguments (`-i key`, `-o …`). */
  readonly sshArgs?: readonly string[];
}

/** POSIX single-quoting of one word. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

type FsData = { ok?: unknown; content?: unknown; entries?: unknown };

/** Reads `<guest endpoint dir>/spool/*.jsonl` through the fs bridge, ingests each line, truncates. */
async function drainGuestSpool(
  guest: GuestHandle,
  ingestSpooled: (line: unknown, connectionId: string) => boolean,
  committed: () => Promise<void>,
  log: HostLogger,
): Promise<void> {
  const dir = `${posix.dirname(guest.endpointPath)}/spool`;
  const listing = (await guest.fs.readdir(dir)) as FsData;
  if (listing.ok !== true || !Array.isArray(listing.entries)) return;
  let accepted = 0;
  for (const entry of listing.entries as { name?: unknown; type?: unknown }[]) {
    if (typeof entry.name !== 'string' || !entry.name.endsWith('.jsonl') || entry.type !== 'file') continue;
    const path = `${dir}/${entry.name}`;
    const read = (await guest.fs.readFile(path)) as FsData;
    if (read.ok !== true || typeof read.content !== 'string') continue;
    for (const line of read.content.split('\n')) {
      if (line.trim() === '') continue;
      try {
        if (ingestSpooled(JSON.parse(line), guest.connectionId)) accepted += 1;
      } catch {
        // not JSON: dropped
      }
    }
    // Why: accepted lines are only queued for the store; the file is emptied once they are committed.
    if (!(await succeeds(committed()))) continue;
    await guest.fs.writeFile(path, '');
  }
  if (accepted > 0) log.info({ guest: guest.connectionId, accepted }, 'guest spool ingested');
}

/** The host's guests: netns holders, the relay manager, guest-pane argv. */
export interface GuestRegistry {
  add(kind: GuestKind, name: string, opts?: AddGuestOptions): Promise<GuestInfo>;
  /** Stops the guest's relay for good (its hooks stop arriving), kills its netns holder, forgets it. */
  remove(name: string): Promise<boolean>;
  list(): GuestInfo[];
  /**
   * How to run `argv` inside guest `name` with the pane's identity and the guest's endpoint file,
   * in `cwd` on the guest's side. `localCwd`: where the local process (nsenter, ssh) starts.
   */
  paneArgv(
    name: string,
    argv: readonly string[],
    vars: Record<string, string>,
    cwd?: string,
  ): { argv: string[]; localCwd?: string };
  /** Adds every stored guest again (after a restart), in the background; failures are logged. */
  restore(): void;
  disposeAll(): void;
}

interface GuestEntry {
  kind: GuestKind;
  name: string;
  target: string;
  holder?: NetnsHolder;
  handle?: GuestHandle;
  opts: AddGuestOptions;
}

/**
 * Wires `@orca/relay/manager` for the host: one netns holder per netns guest (killed on removal
 * and shutdown), the ssh spawner, managed hooks installed through the fs bridge at connect, and
 * each relayed event's raw params with the guest's connectionId into the host's ingest (the one
 * trust boundary).
 */
export function createGuestRegistry(opts: {
  dataDir: string;
  endpointPath: string;
  hostPort: () => number;
  hostToken: () => string;
  /** A relayed event's raw params and the guest's connectionId, for the trust boundary (`HookIngest.ingest`). */
  ingest: (params: unknown, connectionId: string) => RelayedEvent | null;
  /** A spooled line read from a guest, through the trust boundary with the guest's connectionId. */
  ingestSpooled: (line: unknown, connectionId: string) => boolean;
  store: Store;
  log: HostLogger;
  now: () => number;
}): GuestRegistry {
  const entries = new Map<string, GuestEntry>();
  const byConnection = new Map<string, GuestEntry>();
  const netnsHome = (name: string): string => join(opts.dataDir, 'guests', `netns-${name}`);
  let manager: RelayManager | null = null;
  /** Stored guests being added again at start, listed as `starting` until their entry exists. */
  const restoring = new Map<string, { kind: GuestKind; target: string }>();
  const sshEntry = (target: string): GuestEntry | undefined => {
    const key = target.trim().toLowerCase();
    return [...entries.values()].find((e) => e.kind === 'ssh' && e.target.trim().toLowerCase() === key);
  };
  const getManager = (): RelayManager => {
    if (manager) return manager;
    let bundle: ReturnType<typeof guestBundle>;
    try {
      bundle = guestBundle();
    } catch (cause) {
      throw new HostError('ORCA_HOST_GUEST', `the guest relay bundle is not built: ${(cause as Error).message}`, {
        cause,
      });
    }
    manager = createRelayManager({
      spawners: [
        netnsSpawner({ holderPid: (name) => entries.get(name)?.holder?.pid, home: (name) => netnsHome(name) }),
        // Why: each ssh guest carries its own arguments (port, key, -o …), for its relay and its panes.
        sshSpawner({ sshArgs: (target) => sshEntry(target)?.opts.sshArgs }),
      ],
      bundle,
      hostPort: opts.hostPort,
      hostToken: opts.hostToken,
      instanceKey: createHash('sha256').update(opts.endpointPath).digest('hex').slice(0, 12),
      ingest: opts.ingest,
      onConnect: async (guest) => {
        const entry = byConnection.get(guest.connectionId);
        if (!entry) return;
        entry.handle = guest;
        await drainGuestSpool(guest, opts.ingestSpooled, () => opts.store.committed(), opts.log);
        if (entry.opts.noHooks) return;
        const agents =
          entry.opts.agents && entry.opts.agents.length > 0
            ? entry.opts.agents
            : await agentsInGuest(guest.home, (path) => guest.fs.stat(path));
        const reports = await installHooks({ home: guest.home, agents }, guestInstallFs(guest.fs, guest.home));
        for (const r of reports) {
          if (r.error)
            opts.log.warn(
              { guest: guest.connectionId, agent: r.agent, code: r.error.code },
              'guest hook install refused',
            );
        }
      },
      log: {
        debug: (m) => opts.log.debug(m),
        info: (m) => opts.log.info(m),
        warn: (m) => opts.log.warn(m),
        error: (m) => opts.log.error(m),
      },
      debug: process.env.ORCA_RELAY_DEBUG === '1',
    });
    return manager;
  };
  const info = (entry: GuestEntry): GuestInfo => {
    const view = manager?.get(entry.kind, entry.target);
    return {
      name: entry.name,
      kind: entry.kind,
      target: entry.target,
      connectionId: view?.connectionId ?? `${entry.kind}:${entry.target}`,
      phase: view?.phase ?? 'starting',
      failures: view?.failures ?? 0,
      ...(view?.cooldownUntil !== undefined ? { cooldownUntil: view.cooldownUntil } : {}),
      ...(view?.lastError !== undefined ? { lastError: view.lastError } : {}),
      ...(entry.handle ? { home: entry.handle.home, endpointPath: entry.handle.endpointPath } : {}),
    } as GuestInfo;
  };
  return {
    async add(kind, name, addOpts = {}) {
      if (entries.has(name)) throw new HostError('ORCA_HOST_USAGE', `guest ${name} already exists; remove it first`);
      if (kind === 'ssh' && !addOpts.target)
        throw new HostError('ORCA_HOST_USAGE', 'an ssh guest needs --target user@host[:port]');
      const target = kind === 'ssh' ? (addOpts.target ?? '') : name;
      const entry: GuestEntry = { kind, name, target, opts: addOpts };
      const m = getManager();
      if (kind === 'netns') {
        mkdirSync(netnsHome(name), { recursive: true, mode: DATA_DIR_MODE });
        try {
          entry.holder = await startNetnsHolder();
        } catch (cause) {
          throw refusal('guest_unavailable', `cannot create network namespace ${name}: ${(cause as Error).message}`);
        }
      }
      entries.set(name, entry);
      byConnection.set(kind === 'netns' ? `netns:${name}` : `ssh:${target.trim().toLowerCase()}`, entry);
      const view = await m.ensure(kind, target);
      opts.store.upsertGuest({
        kind,
        name,
        target,
        createdAt: opts.now(),
        options: {
          ...(addOpts.noHooks ? { noHooks: true } : {}),
          ...(addOpts.agents ? { agents: [...addOpts.agents] } : {}),
          ...(addOpts.sshArgs ? { sshArgs: [...addOpts.sshArgs] } : {}),
        },
      });
      if (view.phase !== 'running') {
        throw refusal('guest_unavailable', `guest ${name} did not start: ${view.lastError ?? view.phase}`);
      }
      return info(entry);
    },
    async remove(name) {
      const entry = entries.get(name);
      const stored = opts.store.listGuests().find((g) => g.name === name);
      if (!entry && !stored) return false;
      if (entry) {
        entries.delete(name);
        for (const [id, e] of byConnection) if (e === entry) byConnection.delete(id);
        // Why: the relay must stop before the namespace goes, or it keeps posting as this guest.
        await manager?.remove(entry.kind, entry.target);
        entry.holder?.kill();
      }
      if (stored) opts.store.deleteGuest(stored.kind, stored.name);
      return true;
    },
    list: () => [
      ...[...entries.values()].map(info),
      ...[...restoring]
        .filter(([name]) => !entries.has(name))
        .map(
          ([name, g]) =>
            ({
              name,
              kind: g.kind,
              target: g.target,
              connectionId: `${g.kind}:${g.target}`,
              phase: 'starting',
              failures: 0,
            }) as GuestInfo,
        ),
    ],
    restore() {
      for (const g of opts.store.listGuests()) {
        if (g.kind !== 'netns' && g.kind !== 'ssh') continue;
        const kind: GuestKind = g.kind;
        restoring.set(g.name, { kind, target: g.target });
        void this.add(kind, g.name, { ...(kind === 'ssh' ? { target: g.target } : {}), ...(g.options ?? {}) })
          .catch((error: unknown) =>
            opts.log.warn({ guest: g.name, err: (error as Error).message }, 'stored guest not restored'),
          )
          .finally(() => restoring.delete(g.name));
      }
    },
    paneArgv(name, argv, vars, cwd) {
      const entry = entries.get(name);
      if (!entry?.handle)
        throw refusal('guest_unavailable', `guest ${name} is not running; \`orca guest ls\` shows its state`);
      const envArgs = [
        'env',
        ...Object.entries({ ...vars, ORCA_AGENT_HOOK_ENDPOINT: entry.handle.endpointPath }).map(
          ([k, v]) => `${k}=${v}`,
        ),
      ];
      if (entry.kind === 'netns') {
        if (!entry.holder) throw refusal('guest_unavailable', `guest ${name} has no namespace holder`);
        // Why: the namespace shares the host's file system; the local start directory is the pane's.
        return { argv: enterArgv(entry.holder.pid, [...envArgs, `HOME=${entry.handle.home}`, ...argv]) };
      }
      // Why: ssh joins the remote argv with spaces for the remote shell; quote each word. The
      // directory is the remote one; locally ssh starts where it surely exists.
      const remote = [...envArgs, ...argv].map(shellQuote);
      return {
        argv: [
          'ssh',
          '-tt',
          ...(entry.opts.sshArgs ?? []),
          sshDestination(entry.target),
          ...(cwd ? ['cd', shellQuote(cwd), '&&', 'exec', ...remote] : remote),
        ],
        localCwd: '/',
      };
    },
    disposeAll() {
      manager?.disposeAll();
      for (const entry of entries.values()) entry.holder?.kill();
      entries.clear();
    },
  };
}
