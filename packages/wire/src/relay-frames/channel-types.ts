// The public surface of the relay channel: its options, counters and methods.
import type { WireClock } from '../clock.ts';
import type { ReceivePolicy } from '../receive-policy.ts';
import type { RelayRejectReason } from './decoder.ts';
import type { JsonRpcRejectReason } from './jsonrpc-message.ts';
import type { LinkError } from './link-errors.ts';

/** Everything the channel rejects, by reason. */
export type RelayChannelRejectReason = RelayRejectReason | JsonRpcRejectReason;

/** Options of {@link createRelayChannel}. */
export interface RelayChannelOptions {
  /** Takes one whole frame; `false` = backpressured (the bytes are still taken). */
  write(bytes: Uint8Array): boolean;
  /** `'drop'`: count a bad frame and keep the link. `'close'`: dispose the link with the reason. */
  policy: ReceivePolicy;
  clock?: WireClock;
  /** Bytes already read past the sentinel; fed in a microtask, ahead of any later `receive`. */
  initialBytes?: Uint8Array;
  requestTimeoutMs?: number;
  keepaliveMs?: number;
  deadAfterMs?: number;
  deadAfterTimeouts?: number;
  maxPayloadBytes?: number;
}

/** Per-call options of `request`. */
export interface RelayRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Counters of a relay channel. */
export interface RelayChannelStats {
  accepted: number;
  rejected: number;
  byReason: Partial<Record<RelayChannelRejectReason, number>>;
  /** Handshake frames (decoded, unused by protocol 0.1.0). */
  ignoredHandshakes: number;
  /** Responses for ids no longer pending (timed out, cancelled, unknown). */
  lateResponses: number;
  framesSent: number;
}

/** Answers one request; its result (or what it throws) is the response. */
export type RequestHandler = (params: unknown, context: { signal: AbortSignal }) => unknown;
/** Receives one notification. */
export type NotificationHandler = (params: unknown) => void;

/** A JSON-RPC 2.0 link over relay frames. */
export interface RelayChannel {
  /** Feeds bytes read from the transport (after the sentinel). */
  receive(bytes: Uint8Array): void;
  /** Sends anything queued before start, then begins keepalives and dead-link checks. */
  start(): void;
  request(method: string, params?: unknown, options?: RelayRequestOptions): Promise<unknown>;
  /** Sends a notification; returns its JSON-RPC payload's length in bytes (frame header not counted). */
  notify(method: string, params?: unknown): number;
  onRequest(method: string, handler: RequestHandler): void;
  onNotification(method: string, handler: NotificationHandler): void;
  /** False from a `false` write until {@link RelayChannel.drained}. */
  readonly writable: boolean;
  /** The owner reports the transport drained; fires `onDrain` callbacks. */
  drained(): void;
  onDrain(cb: () => void): () => void;
  /** Fires exactly once, with the reason. */
  onDispose(cb: (reason: LinkError) => void): void;
  dispose(): void;
  readonly disposed: boolean;
  stats(): RelayChannelStats;
}
