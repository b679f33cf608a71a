import type { WireClock } from '@orca/wire/relay-frames';
import type { HookSource } from './sources.ts';

/** The raw validated hook envelope; no agent-state normalising happens in the relay. */
export interface HookEvent {
  source: HookSource;
  paneKey: string;
  tabId?: string;
  worktreeId?: string;
  launchToken?: string;
  env?: string;
  version?: string;
  hookEventName?: string;
  /** Grok's extra, under the metadata rules. */
  grokHome?: string;
  /** The parsed JSON object payload. */
  payload: Record<string, unknown>;
  /** Epoch ms on the receiver's clock. */
  receivedAt: number;
}

/** `agent.hook` notification params sent by a guest relay. */
export interface WireHookEvent extends HookEvent {
  connectionId: null;
  sentAt: number;
  isReplay?: true;
}

/** An event after the host trust boundary ({@link acceptRelayed}). */
export interface RelayedEvent extends HookEvent {
  connectionId: string;
  isReplay?: true;
}

/** Why the listener refused or dropped a request (every one is counted). */
export const DROP_REASONS = [
  'connections',
  'route',
  'auth',
  'too-large',
  'timeout',
  'json',
  'limits',
  'pane-key',
  'tab-mismatch',
  'field',
  'payload',
  'meta',
  'content-type',
] as const;

/** One drop reason. */
export type DropReason = (typeof DROP_REASONS)[number];

/** Reasons a body (or relayed envelope) fails decoding or validation. */
export type BodyDropReason = Exclude<DropReason, 'connections' | 'route' | 'auth' | 'too-large' | 'timeout'>;

/** Injected clock: epoch ms plus timers (wire's clock type, shared by the relay channel). */
export type RelayClock = WireClock;

/** Injected logger; every method optional in spirit, all four present in shape. */
export interface RelayLog {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** The real clock. */
export const systemClock: RelayClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** A logger that writes nothing. */
export const silentLog: RelayLog = { debug() {}, info() {}, warn() {}, error() {} };
