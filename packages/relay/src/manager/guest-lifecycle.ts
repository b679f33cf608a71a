import type { RelayChannel } from '@orca/wire/relay-frames';
import {
  COOLDOWN_CAP_MS,
  COOLDOWN_LINK_DEATH_BASE_MS,
  COOLDOWN_STARTUP_BASE_MS,
  COOLDOWN_UNAVAILABLE_BASE_MS,
  INSTALL_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  REMOVE_KILL_GRACE_MS,
  RESTART_SLACK_MS,
  STABLE_UPTIME_MS,
  TRANSIENT_RETRIES,
  TRANSIENT_RETRY_DELAY_MS,
} from '../constants.ts';
import { buildInstallScript } from '../guest/scripts.ts';
import type { RelayClock, RelayLog } from '../listener/types.ts';
import { RELAY_EXIT_CODES } from '../protocol.ts';
import { dropChannel, type GuestState, killChild } from './guest-state.ts';
import { runInstall, startChild } from './startup.ts';
import type { ChildLike, SpawnFn, StartupFailure } from './types.ts';

/** What {@link createGuestLifecycle} needs from the manager. */
export interface GuestLifecycleDeps {
  clock: RelayClock;
  spawn: SpawnFn;
  log: RelayLog;
  bundle: { code: Uint8Array | string; version: string };
  hostPort(): number;
  instanceKey: string;
  /** True once `s` is no longer the manager's current state for its key (or all are disposed). */
  isDisposed(s: GuestState): boolean;
  /** True once the whole manager is disposed. */
  managerDisposed(): boolean;
  /** Forget `s` if it is still the current state for its key. */
  forget(s: GuestState): void;
  /** Start the guest again (the manager's `ensure`). */
  restart(kind: string, target: string): void;
  /** Bring up the link to a started relay (see `connectGuestLink`). */
  connect(s: GuestState, child: ChildLike, rest: Uint8Array): Promise<void>;
}

/** The per-guest state machine: STARTING → RUNNING | FAILED (cooldown, restart probe). */
export interface GuestLifecycle {
  /** Run startup attempts (transient retries, install once) until RUNNING or FAILED. */
  attempt(s: GuestState): Promise<void>;
  /** FAILED with a cooldown of `baseMs × failures` (capped) and a restart probe after it. */
  markFailed(s: GuestState, baseMs: number, reason: string): void;
  /** The link of `s` died: a running guest fails with the link-death cooldown. */
  onDead(s: GuestState, channel: RelayChannel): void;
  /** Stop `s` for good: cancel its restart, dispose its link, SIGTERM then SIGKILL its relay. */
  stop(s: GuestState): Promise<void>;
}

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
 * Create the guest state machine with the spec's cooldowns, install-once, transient retries and
 * identity-guarded restarts (every async step re-checks `isDisposed`).
 */
export function createGuestLifecycle(d: GuestLifecycleDeps): GuestLifecycle {
  const { clock, log } = d;

  const markFailed = (s: GuestState, baseMs: number, reason: string): void => {
    s.phase = 'failed';
    s.failures += 1;
    dropChannel(s);
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
    if (d.isDisposed(s)) return;
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
    if (d.isDisposed(s)) return;
    if (running) d.restart(s.kind, s.target);
    else d.forget(s);
  };

  const onDead = (s: GuestState, channel: RelayChannel): void => {
    if (d.managerDisposed() || s.channel !== channel) return;
    if (s.phase !== 'running') {
      dropChannel(s);
      killChild(s.child);
      return;
    }
    if (s.connectedAt !== undefined && clock.now() - s.connectedAt >= STABLE_UPTIME_MS) s.failures = 0;
    const secs = Math.round(Math.min(COOLDOWN_LINK_DEATH_BASE_MS * (s.failures + 1), COOLDOWN_CAP_MS) / 1000);
    markFailed(s, COOLDOWN_LINK_DEATH_BASE_MS, `link lost; scheduling restart in ${secs} s`);
  };

  const attempt = async (s: GuestState): Promise<void> => {
    let transient = 0;
    let installed = false;
    for (;;) {
      if (d.isDisposed(s)) return;
      const env: Record<string, string> = {
        ORCA_AGENT_HOOK_PORT: String(d.hostPort()),
        ORCA_AGENT_HOOK_TOKEN: s.token,
        ORCA_GUEST_INSTANCE: d.instanceKey,
        ORCA_RELAY_VERSION: d.bundle.version,
      };
      let result: Awaited<ReturnType<typeof startChild>>;
      try {
        result = await startChild(d.spawn, s.spawner.launch(s.target, env), clock);
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
      if (d.isDisposed(s)) {
        if (result.ok) killChild(result.child);
        return;
      }
      if (result.ok) {
        await d.connect(s, result.child, result.rest);
        return;
      }
      const f = result.failure;
      const cls = s.spawner.classify(f);
      if ((f.kind === 'exit' && f.code === RELAY_EXIT_CODES.noNode) || cls === 'unavailable') {
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
          d.spawn,
          s.spawner.install(s.target),
          buildInstallScript(d.bundle),
          clock,
          INSTALL_TIMEOUT_MS,
        );
        if (d.isDisposed(s)) return;
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

  const stop = async (s: GuestState): Promise<void> => {
    if (s.restartTimer !== undefined) clock.clearTimeout(s.restartTimer);
    s.restartTimer = undefined;
    dropChannel(s);
    const child = s.child;
    s.child = undefined;
    if (child === undefined) return;
    killChild(child);
    let timer: unknown;
    const closed = await Promise.race([
      (s.childClosed ?? Promise.resolve()).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = clock.setTimeout(() => resolve(false), REMOVE_KILL_GRACE_MS);
      }),
    ]);
    clock.clearTimeout(timer);
    if (!closed) killChild(child, 'SIGKILL');
  };

  return { attempt, markFailed, onDead, stop };
}
