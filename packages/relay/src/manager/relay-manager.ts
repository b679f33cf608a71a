import { spawn as nodeSpawn } from 'node:child_process';
import { COOLDOWN_STARTUP_BASE_MS, REMOVE_KILL_GRACE_MS } from '../constants.ts';
import { RelayError } from '../errors.ts';
import { launchLine } from '../guest/scripts.ts';
import { type RelayClock, type RelayLog, silentLog, systemClock } from '../listener/types.ts';
import { createGuestLifecycle } from './guest-lifecycle.ts';
import { connectGuestLink, type IngestCounts } from './guest-link.ts';
import { dropChannel, type GuestState, guestView, killChild } from './guest-state.ts';
import type { GuestHandle, GuestSpawner, GuestView, IngestFn, SpawnFn } from './types.ts';

/** Options of {@link createRelayManager}. */
export interface RelayManagerOptions {
  spawners: GuestSpawner[];
  bundle: { code: Uint8Array | string; version: string };
  hostPort(): number;
  hostToken(): string;
  /** Restart-stable instance key (host: sha256 of its own endpoint path, first 12 hex). */
  instanceKey: string;
  /** The host's trust boundary: gets each guest's raw `agent.hook` params and its connectionId. */
  ingest: IngestFn;
  onConnect?(guest: GuestHandle): Promise<void>;
  clock?: RelayClock;
  spawn?: SpawnFn;
  log?: RelayLog;
  /** Log every relayed envelope (`ORCA_RELAY_DEBUG=1`). */
  debug?: boolean;
}

/** The host-side guest manager. */
export interface RelayManager {
  ensure(kind: string, target: string): Promise<GuestView>;
  get(kind: string, target: string): GuestView | undefined;
  /**
   * Stop one guest for good: cancel its restart, dispose its link, kill its relay (SIGKILL after
   * {@link REMOVE_KILL_GRACE_MS}) and forget it, also from a pause's remembered list. Resolves once
   * the relay process has closed; true when the guest was known. A later `ensure` starts afresh.
   */
  remove(kind: string, target: string): Promise<boolean>;
  list(): GuestView[];
  pause(): void;
  resume(): void;
  disposeAll(): void;
  /** Relayed envelopes by the host ingest's answer (see {@link IngestFn}): ingested, and dropped by reason. */
  stats(): { ingested: number; dropped: Record<string, number> };
}

const defaultSpawn: SpawnFn = (file, args, options) => nodeSpawn(file, [...args], options);

/**
 * Create the host-side guest manager: one state machine per guest (`<kind>:<key>`, see
 * `guest-lifecycle.ts`), each with its framed link (`guest-link.ts`) once its relay is up.
 *
 * @example
 * const m = createRelayManager({ spawners: [netnsSpawner({ holderPid })], bundle: guestBundle(),
 *   hostPort: () => port, hostToken: () => token, instanceKey,
 *   ingest: (params, connectionId) => hookIngest.ingest(params, connectionId) });
 * await m.ensure('netns', 'dev');
 */
export function createRelayManager(o: RelayManagerOptions): RelayManager {
  const clock = o.clock ?? systemClock;
  const log = o.log ?? silentLog;
  const byKind = new Map<string, GuestSpawner>();
  for (const s of o.spawners) {
    if (byKind.has(s.kind))
      throw new RelayError('ORCA_RELAY_DUPLICATE_KIND', `two spawners for kind ${JSON.stringify(s.kind)}`);
    byKind.set(s.kind, s);
  }
  launchLine(o.bundle.version);
  const guests = new Map<string, GuestState>();
  let disposed = false;
  let paused = false;
  let remembered: [string, string][] = [];
  let warnedInactive = false;
  const counts: IngestCounts = { ingested: 0, dropped: {} };
  const isDisposed = (s: GuestState): boolean => disposed || guests.get(s.key) !== s;

  const lifecycle = createGuestLifecycle({
    clock,
    spawn: o.spawn ?? defaultSpawn,
    log,
    bundle: o.bundle,
    hostPort: o.hostPort,
    instanceKey: o.instanceKey,
    isDisposed,
    managerDisposed: () => disposed,
    forget: (s) => {
      if (guests.get(s.key) === s) guests.delete(s.key);
    },
    restart: (kind, target) => void ensure(kind, target),
    connect: (s, child, rest) =>
      connectGuestLink(
        {
          clock,
          log,
          debug: o.debug === true,
          hostPort: o.hostPort,
          ingest: o.ingest,
          onConnect: o.onConnect,
          counts,
          isDisposed,
          onDead: lifecycle.onDead,
          markFailed: lifecycle.markFailed,
        },
        s,
        child,
        rest,
      ),
  });

  const ensure = (kind: string, target: string): Promise<GuestView> => {
    const spawner = byKind.get(kind);
    if (spawner === undefined)
      return Promise.reject(new RelayError('ORCA_RELAY_BAD_OPTIONS', `no spawner for kind ${JSON.stringify(kind)}`));
    let key: string;
    try {
      key = `${kind}:${spawner.key(target)}`;
    } catch (err) {
      return Promise.reject(err);
    }
    const inactive = (): GuestView => ({
      kind,
      target,
      connectionId: spawner.connectionId(target),
      phase: 'inactive',
      failures: 0,
    });
    if (disposed) return Promise.resolve(inactive());
    if (paused) {
      if (!remembered.some(([k, t]) => k === kind && t === target)) remembered.push([kind, target]);
      return Promise.resolve(inactive());
    }
    if (!(o.hostPort() > 0) || o.hostToken() === '') {
      if (!warnedInactive) log.warn('[relay] host hook listener not ready; guests are not started');
      warnedInactive = true;
      return Promise.resolve(inactive());
    }
    const existing = guests.get(key);
    if (existing !== undefined) {
      if (existing.phase === 'starting' && existing.startPromise !== undefined) return existing.startPromise;
      if (existing.phase === 'running') return Promise.resolve(guestView(existing));
      if (existing.cooldownUntil !== undefined && clock.now() < existing.cooldownUntil)
        return Promise.resolve(guestView(existing));
      if (existing.restartTimer !== undefined) clock.clearTimeout(existing.restartTimer);
    }
    const s: GuestState = {
      key,
      kind,
      // Why: the key is for identity; spawners get the target as given (an ssh user name keeps its case).
      target: target.trim(),
      spawner,
      connectionId: spawner.connectionId(target),
      token: spawner.token(target, o.hostToken()),
      phase: 'starting',
      failures: existing?.failures ?? 0,
    };
    guests.set(key, s);
    s.startPromise = lifecycle.attempt(s).then(
      () => guestView(s),
      (err: unknown) => {
        if (!isDisposed(s))
          lifecycle.markFailed(
            s,
            COOLDOWN_STARTUP_BASE_MS,
            `startup threw: ${err instanceof Error ? err.message : String(err)}`,
          );
        return guestView(s);
      },
    );
    return s.startPromise;
  };

  const stopAll = (): void => {
    for (const s of guests.values()) {
      if (s.restartTimer !== undefined) clock.clearTimeout(s.restartTimer);
      dropChannel(s);
      killChild(s.child);
    }
    guests.clear();
  };

  const remove = async (kind: string, target: string): Promise<boolean> => {
    const spawner = byKind.get(kind);
    if (spawner === undefined) return false;
    let key: string;
    try {
      key = `${kind}:${spawner.key(target)}`;
    } catch {
      return false;
    }
    const before = remembered.length;
    remembered = remembered.filter(([k, t]) => k !== kind || `${k}:${spawner.key(t)}` !== key);
    const s = guests.get(key);
    if (s === undefined) return remembered.length !== before;
    // Why: deleting first makes every in-flight step of this state see isDisposed() and stop.
    guests.delete(key);
    await lifecycle.stop(s);
    log.info(`[relay] ${s.connectionId}: removed`);
    return true;
  };

  return {
    ensure,
    remove,
    get(kind, target) {
      const spawner = byKind.get(kind);
      if (spawner === undefined) return undefined;
      const s = guests.get(`${kind}:${spawner.key(target)}`);
      return s === undefined ? undefined : guestView(s);
    },
    list: () => [...guests.values()].map(guestView),
    pause() {
      if (disposed) return;
      remembered = [...guests.values()].map((s) => [s.kind, s.target]);
      paused = true;
      stopAll();
    },
    resume() {
      if (disposed || !paused) return;
      paused = false;
      const again = remembered;
      remembered = [];
      for (const [k, t] of again) void ensure(k, t);
    },
    disposeAll() {
      disposed = true;
      stopAll();
    },
    stats: () => ({ ingested: counts.ingested, dropped: { ...counts.dropped } }),
  };
}
