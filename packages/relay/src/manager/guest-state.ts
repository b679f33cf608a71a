import type { RelayChannel } from '@orca/wire/relay-frames';
import type { ChildLike, GuestSpawner, GuestView } from './types.ts';

/** The manager's record of one guest (`<kind>:<key>`); the lifecycle and the link mutate it. */
export interface GuestState {
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

/** What callers see of a guest state (optional fields only when set). */
export function guestView(s: GuestState): GuestView {
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
}

/** Send `signal` to a child that may already be gone. */
export function killChild(child: ChildLike | undefined, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    child?.kill(signal);
  } catch {
    // Why: the child may already be gone.
  }
}

/** Dispose the guest's link (if any) and forget it; the child is left to the caller. */
export function dropChannel(s: GuestState): void {
  const channel = s.channel;
  s.channel = undefined;
  channel?.dispose();
}
