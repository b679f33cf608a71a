import { spawn as nodeSpawn } from 'node:child_process';
import { createRelayChannel, type RelayChannel } from '@orca/wire/relay-frames';
import {
  COOLDOWN_CAP_MS,
  COOLDOWN_LINK_DEATH_BASE_MS,
  COOLDOWN_STARTUP_BASE_MS,
  COOLDOWN_UNAVAILABLE_BASE_MS,
  FS_BRIDGE_MAX_FRAME_BYTES,
  HOST_REQUEST_TIMEOUT_MS,
  INSTALL_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  REMOVE_KILL_GRACE_MS,
  RESTART_SLACK_MS,
  STABLE_UPTIME_MS,
  TRANSIENT_RETRIES,
  TRANSIENT_RETRY_DELAY_MS,
} from '../constants.ts';
import { RelayError } from '../errors.ts';
import { buildInstallScript, launchLine } from '../guest/scripts.ts';
import { acceptRelayed } from '../listener/trust-boundary.ts';
import { type RelayClock, type RelayLog, silentLog, systemClock } from '../listener/types.ts';
import { runInstall, startChild } from './startup.ts';
import type {
  ChildLike,
  GuestFs,
  GuestHandle,
  GuestSpawner,
  GuestView,
  IngestFn,
  SpawnFn,
  StartupFailure,
} from './types.ts';

/** Options of {@link createRelayManager}. */
export interface RelayManagerOptions {
  spawners: GuestSpawner[];
  bundle: { code: Uint8Array | string; version: string };
  hostPort(): number;
  hostToken(): string;
  /** Restart-stable instance key (host: sha256 of its own endpoint path, first 12 hex). */
  instanceKey: string;
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
  /** Relayed envelopes dropped at the trust boundary, by reason. */
  stats(): { ingested: number; dropped: Record<string, number> };
}

interface GuestState {
  key: string;
  kind: string;
  target: string;
  spawner: GuestSpawner;
  connectionId: string;
  token: string;
  phase: 'starting' | 'running' | 'failed';
  failures: number;
  cooldownUntil?: number;
  lastError?: string;
  child?: ChildLike;
  /** Settles when `child` has closed. */
  childClosed?: Promise<void>;
  channel?: RelayChannel;
  connectedAt?: number;
  startPromise?: Promise<GuestView>;
  restartTimer?: unknown;
}

const defaultSpawn: SpawnFn = (file, args, options) => nodeSpawn(file, [...args], options);

function sleep(clock: RelayClock, ms: number): Promise<void> {
  return new Promise((r) => clock.setTimeout(r, ms));
}

function describeFailure(f: StartupFailure): string {
  if (f.kind === 'exit') return `code ${f.code ?? 'signal'}`;
  if (f.kind === 'spawn-error') return `spawn ${f.errno ?? 'error'}`;
  if (f.kind === 'version') return `protocol ${f.version ?? '?'}`;
  return f.kind;
}

/**
 * Create the host-side guest manager: one state machine per guest (`<kind>:<key>`), with the
 * spec's cooldowns, install-once, transient retries and identity-guarded restarts.
 *
 * @example
 * const m = createRelayManager({ spawners: [netnsSpawner({ holderPid })], bundle: guestBundle(),
 *   hostPort: () => port, hostToken: () => token, instanceKey, ingest: (e) => host.ingest(e) });
 * await m.ensure('netns', 'dev');
 */
export function createRelayManager(o: RelayManagerOptions): RelayManager {
  const clock = o.clock ?? systemClock;
  const spawn = o.spawn ?? defaultSpawn;
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
  let ingested = 0;
  const dropped: Record<string, number> = {};

  const view = (s: GuestState): GuestView => {
    const v: GuestView = {
      kind: s.kind,
      target: s.target,
      connectionId: s.connectionId,
      phase: s.phase,
      failures: s.failures,
    };
    if (s.cooldownUntil !== undefined) v.cooldownUntil = s.cooldownUntil;
    if (s.lastError !== undefined) v.lastError = s.lastError;
    return v;
  };
  const isDisposed = (s: GuestState): boolean => disposed || guests.get(s.key) !== s;

  const killChild = (child: ChildLike | undefined): void => {
    try {
      child?.kill('SIGTERM');
    } catch {
      // Why: the child may already be gone.
    }
  };

  const markFailed = (s: GuestState, baseMs: number, reason: string): void => {
    s.phase = 'failed';
    s.failures += 1;
    const channel = s.channel;
    s.channel = undefined;
    channel?.dispose();
    killChild(s.child);
    s.child = undefined;
    s.lastError = reason;
    s.cooldownUntil = clock.now() + Math.min(baseMs * s.failures, COOLDOWN_CAP_MS);
    log.warn(`[relay] ${s.connectionId}: ${reason}`);
    if (s.restartTimer !== undefined) clock.clearTimeout(s.restartTimer);
    s.restartTimer = clock.setTimeout(() => void restartCheck(s), s.cooldownUntil - clock.now() + RESTART_SLACK_MS);
  };

  const restartCheck = async (s: GuestState): Promise<void> => {
    s.restartTimer = undefined;
    if (isDisposed(s)) return;
    let running = false;
    let probeTimer: unknown;
    try {
      running = await Promise.race([
        s.spawner.isRunning(s.target),
        new Promise<boolean>((resolve) => {
          probeTimer = clock.setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      running = false;
    } finally {
      clock.clearTimeout(probeTimer);
    }
    if (isDisposed(s)) return;
    if (running) void ensure(s.kind, s.target);
    else if (guests.get(s.key) === s) guests.delete(s.key);
  };

  const onDead = (s: GuestState, channel: RelayChannel): void => {
    if (disposed || s.channel !== channel) return;
    if (s.phase !== 'running') {
      s.channel = undefined;
      channel.dispose();
      killChild(s.child);
      return;
    }
    if (s.connectedAt !== undefined && clock.now() - s.connectedAt >= STABLE_UPTIME_MS) s.failures = 0;
    const secs = Math.round(Math.min(COOLDOWN_LINK_DEATH_BASE_MS * (s.failures + 1), COOLDOWN_CAP_MS) / 1000);
    markFailed(s, COOLDOWN_LINK_DEATH_BASE_MS, `link lost; scheduling restart in ${secs} s`);
  };

  const makeFs = (channel: RelayChannel): GuestFs => ({
    readFile: (path) => channel.request('guestfs.readFile', { path }),
    writeFile: async (path, content, mode) => {
      // Why: refuse before sending rather than kill the link with an oversize frame.
      if (Buffer.byteLength(JSON.stringify(content)) + 256 > FS_BRIDGE_MAX_FRAME_BYTES)
        return { ok: false, errno: 'EFBIG', message: 'content passes the frame cap' };
      return channel.request('guestfs.writeFile', mode === undefined ? { path, content } : { path, content, mode });
    },
    stat: (path) => channel.request('guestfs.stat', { path }),
    rename: (src, dst) => channel.request('guestfs.rename', { src, dst }),
    unlink: (path) => channel.request('guestfs.unlink', { path }),
    mkdir: (path) => channel.request('guestfs.mkdir', { path }),
    chmod: (path, mode) => channel.request('guestfs.chmod', { path, mode }),
    readdir: (path) => channel.request('guestfs.readdir', { path }),
  });

  const connect = async (s: GuestState, child: ChildLike, rest: Uint8Array): Promise<void> => {
    const stdin = child.stdin;
    const channel = createRelayChannel({
      policy: 'close',
      clock,
      initialBytes: rest,
      requestTimeoutMs: HOST_REQUEST_TIMEOUT_MS,
      write: (bytes) => (stdin === null ? true : stdin.write(bytes)),
    });
    s.child = child;
    s.childClosed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    s.channel = channel;
    channel.onNotification('agent.hook', (params) => {
      const r = acceptRelayed(params, s.connectionId, clock);
      if ('drop' in r) {
        dropped[r.drop] = (dropped[r.drop] ?? 0) + 1;
        log.debug(`[relay] ${s.connectionId}: dropped agent.hook (${r.drop})`);
        return;
      }
      if (o.debug === true) log.debug(`[relay] ${s.connectionId}: ${r.source} ${r.paneKey}`);
      ingested += 1;
      o.ingest(r);
    });
    channel.onDispose(() => onDead(s, channel));
    child.on('close', () => onDead(s, channel));
    stdin?.on('drain', () => channel.drained());
    child.stdout?.on('data', (b: Buffer) => channel.receive(b));
    child.stdout?.resume();
    child.stderr?.on('data', (b: Buffer) =>
      log.debug(`[relay] ${s.connectionId} stderr: ${b.toString('utf8').replace(/\0/g, '').trimEnd()}`),
    );
    channel.start();
    try {
      const home = (await channel.request('guestfs.home')) as Record<string, unknown> | null;
      if (typeof home !== 'object' || home === null || home.ok !== true || typeof home.home !== 'string')
        throw new Error('returned no home dir');
      if (isDisposed(s)) return;
      if (home.portFallback === true)
        log.warn(
          `[relay] ${s.connectionId}: guest port ${o.hostPort()} occupied; relay bound ${String(home.boundPort)}`,
        );
      const handle: GuestHandle = {
        ...view(s),
        home: home.home,
        endpointPath: typeof home.endpointPath === 'string' ? home.endpointPath : '',
        boundPort: typeof home.boundPort === 'number' ? home.boundPort : 0,
        portFallback: home.portFallback === true,
        token: s.token,
        pid: child.pid,
        fs: makeFs(channel),
        request: (method, params) => channel.request(method, params),
      };
      await o.onConnect?.(handle);
      if (isDisposed(s)) return;
      if (s.channel !== channel || channel.disposed) throw new Error('link lost while connecting');
      s.phase = 'running';
      s.connectedAt = clock.now();
      channel.request('agent_hook.requestReplay').catch(() => undefined);
    } catch (err) {
      if (isDisposed(s)) return;
      markFailed(s, COOLDOWN_STARTUP_BASE_MS, `connect failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const attempt = async (s: GuestState): Promise<void> => {
    let transient = 0;
    let installed = false;
    for (;;) {
      if (isDisposed(s)) return;
      const env: Record<string, string> = {
        ORCA_AGENT_HOOK_PORT: String(o.hostPort()),
        ORCA_AGENT_HOOK_TOKEN: s.token,
        ORCA_GUEST_INSTANCE: o.instanceKey,
        ORCA_RELAY_VERSION: o.bundle.version,
      };
      let result: Awaited<ReturnType<typeof startChild>>;
      try {
        result = await startChild(spawn, s.spawner.launch(s.target, env), clock);
      } catch (err) {
        const errno = (err as NodeJS.ErrnoException).code;
        result = {
          ok: false,
          failure: {
            kind: 'spawn-error',
            errno: typeof errno === 'string' ? errno : 'ENOHOLDER',
            stderrTail: String((err as Error).message),
          },
        };
      }
      if (isDisposed(s)) {
        if (result.ok) killChild(result.child);
        return;
      }
      if (result.ok) {
        await connect(s, result.child, result.rest);
        return;
      }
      const f = result.failure;
      const cls = s.spawner.classify(f);
      if ((f.kind === 'exit' && f.code === 43) || cls === 'unavailable') {
        markFailed(
          s,
          COOLDOWN_UNAVAILABLE_BASE_MS,
          `guest unavailable (${describeFailure(f)}): ${f.stderrTail.slice(-500)}`,
        );
        return;
      }
      if (cls === 'transient' && transient < TRANSIENT_RETRIES) {
        transient += 1;
        await sleep(clock, TRANSIENT_RETRY_DELAY_MS);
        continue;
      }
      if (!installed) {
        installed = true;
        const inst = await runInstall(
          spawn,
          s.spawner.install(s.target),
          buildInstallScript(o.bundle),
          clock,
          INSTALL_TIMEOUT_MS,
        );
        if (isDisposed(s)) return;
        if (inst.code === 0) continue;
        markFailed(
          s,
          COOLDOWN_STARTUP_BASE_MS,
          inst.timedOut
            ? 'guest install timed out'
            : `guest install failed (code ${inst.code ?? 'signal'}): ${inst.stderrTail.slice(-500)}`,
        );
        return;
      }
      markFailed(
        s,
        COOLDOWN_STARTUP_BASE_MS,
        `startup failed (${s.kind}, ${describeFailure(f)}): ${f.stderrTail.slice(-500)}`,
      );
      return;
    }
  };

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
      if (existing.phase === 'running') return Promise.resolve(view(existing));
      if (existing.cooldownUntil !== undefined && clock.now() < existing.cooldownUntil)
        return Promise.resolve(view(existing));
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
    s.startPromise = attempt(s).then(
      () => view(s),
      (err: unknown) => {
        if (!isDisposed(s))
          markFailed(s, COOLDOWN_STARTUP_BASE_MS, `startup threw: ${err instanceof Error ? err.message : String(err)}`);
        return view(s);
      },
    );
    return s.startPromise;
  };

  const stopAll = (): void => {
    for (const s of guests.values()) {
      if (s.restartTimer !== undefined) clock.clearTimeout(s.restartTimer);
      const ch = s.channel;
      s.channel = undefined;
      ch?.dispose();
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
    if (s.restartTimer !== undefined) clock.clearTimeout(s.restartTimer);
    s.restartTimer = undefined;
    const channel = s.channel;
    s.channel = undefined;
    channel?.dispose();
    const child = s.child;
    s.child = undefined;
    if (child !== undefined) {
      killChild(child);
      let timer: unknown;
      const closed = await Promise.race([
        (s.childClosed ?? Promise.resolve()).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = clock.setTimeout(() => resolve(false), REMOVE_KILL_GRACE_MS);
        }),
      ]);
      clock.clearTimeout(timer);
      if (!closed) {
        try {
          child.kill('SIGKILL');
        } catch {
          // Why: the child may already be gone.
        }
      }
    }
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
      return s === undefined ? undefined : view(s);
    },
    list: () => [...guests.values()].map(view),
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
    stats: () => ({ ingested, dropped: { ...dropped } }),
  };
}
