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
import { DATA_DIR_MODE } from '../constants.ts';
import { HostError, refusal } from '../errors.ts';
import { guestInstallFs } from '../hooks/guest-install-fs.ts';
import { installHooks } from '../hooks/install-hooks.ts';
import type { Store } from '../store/store.ts';
import type { HostLogger } from './logger.ts';

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
  /** Agents whose hooks are installed (default claude). */
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
    await guest.fs.writeFile(path, '');
  }
  if (accepted > 0) log.info({ guest: guest.connectionId, accepted }, 'guest spool ingested');
}

/** The host's guests: netns holders, the relay manager, guest-pane argv. */
export interface GuestRegistry {
  add(kind: GuestKind, name: string, opts?: AddGuestOptions): Promise<GuestInfo>;
  remove(name: string): Promise<boolean>;
  list(): GuestInfo[];
  /** argv that runs `argv` inside guest `name` with the pane's identity and the guest's endpoint file. */
  paneArgv(name: string, argv: readonly string[], vars: Record<string, string>): string[];
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
 * relayed events into the host's ingest (already through the trust boundary, tagged).
 */
export function createGuestRegistry(opts: {
  dataDir: string;
  endpointPath: string;
  hostPort: () => number;
  hostToken: () => string;
  ingest: (event: RelayedEvent) => void;
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
  let sshArgs: string[] = [];
  const getManager = (): RelayManager => {
    if (manager) return manager;
    let bundle: ReturnType<typeof guestBundle>;
    try {
      bundle = guestBundle();
    } catch (cause) {
      throw new HostError(
        'ORCA_HOST_GUEST',
        `the guest relay bundle is not built: ${(cause as Error).message}`,
        {},
        { cause },
      );
    }
    manager = createRelayManager({
      spawners: [
        netnsSpawner({ holderPid: (name) => entries.get(name)?.holder?.pid, home: (name) => netnsHome(name) }),
        sshSpawner({ sshArgs: sshArgs }),
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
        await drainGuestSpool(guest, opts.ingestSpooled, opts.log);
        if (entry.opts.noHooks) return;
        const reports = await installHooks(
          { home: guest.home, agents: entry.opts.agents ?? ['claude'] },
          guestInstallFs(guest.fs, guest.home),
        );
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
      if (addOpts.sshArgs) sshArgs = [...addOpts.sshArgs];
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
      opts.store.upsertGuest({ kind, name, target, createdAt: opts.now() });
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
        entry.holder?.kill();
        entries.delete(name);
      }
      if (stored) opts.store.deleteGuest(stored.kind, stored.name);
      return true;
    },
    list: () => [...entries.values()].map(info),
    paneArgv(name, argv, vars) {
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
        return enterArgv(entry.holder.pid, [...envArgs, `HOME=${entry.handle.home}`, ...argv]);
      }
      // Why: ssh joins the remote argv with spaces for the remote shell; quote each word.
      return ['ssh', '-tt', ...sshArgs, sshDestination(entry.target), ...[...envArgs, ...argv].map(shellQuote)];
    },
    disposeAll() {
      manager?.disposeAll();
      for (const entry of entries.values()) entry.holder?.kill();
      entries.clear();
    },
  };
}
