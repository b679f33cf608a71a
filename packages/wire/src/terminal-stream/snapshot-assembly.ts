// Snapshot assembly on the client: SnapshotStart opens one, SnapshotChunks append to it, and
// SnapshotEnd completes it and settles the stream's resync state. Pure; the client applies it.
import { Opcode } from './opcodes.ts';
import type { SnapshotMeta } from './snapshot-meta.ts';
import { decodeTextPayload } from './text-codec.ts';

/** How a client applies a snapshot. */
export type SnapshotRoute = 'initial' | 'request' | 'recovery';

/** A snapshot being received: opened by SnapshotStart, completed by SnapshotEnd. */
export interface SnapshotAssembly {
  readonly route: SnapshotRoute;
  readonly meta: SnapshotMeta;
  readonly parts: string[];
  /** Payload bytes received so far (before decoding). */
  bytes: number;
}

/** The per-stream state snapshot assembly reads and settles. */
export interface SnapshotStreamState {
  /** The initial snapshot has been applied. */
  initialDone: boolean;
  /** `requestSnapshot` calls whose snapshot has not ended yet. */
  awaitingRequests: number;
  /** A resync SnapshotRequest is outstanding; output is held back until a snapshot settles it. */
  resyncPending: boolean;
  /** The output seq the next frame should continue from. */
  expected: number | undefined;
  assembly: SnapshotAssembly | undefined;
}

/** A complete snapshot, as a sink receives it. */
export interface AssembledSnapshot {
  route: SnapshotRoute;
  meta: SnapshotMeta;
  data: string;
}

/** What one snapshot frame did. */
export type SnapshotStep =
  | { kind: 'started'; route: SnapshotRoute }
  | { kind: 'appended' }
  /** A chunk or end with no snapshot open (never started, or discarded as oversize). */
  | { kind: 'ignored' }
  /** The snapshot went over the byte limit and was discarded whole. */
  | { kind: 'oversize'; route: SnapshotRoute }
  | { kind: 'complete'; snapshot: AssembledSnapshot };

/**
 * The route of a snapshot that starts now: `request` when it answers a `requestSnapshot` (tagged
 * with a requestId, or one is awaited), `initial` before the first one is applied, else `recovery`.
 */
export function snapshotRoute(meta: SnapshotMeta, state: Readonly<SnapshotStreamState>): SnapshotRoute {
  if (meta.requestId !== undefined || state.awaitingRequests > 0) return 'request';
  return state.initialDone ? 'recovery' : 'initial';
}

/**
 * Applies one SnapshotStart (with its parsed `startMeta`), SnapshotChunk or SnapshotEnd to the
 * stream state. Completing a snapshot closes it, counts an awaited request off, clears the resync
 * (unless it answers a tagged request, which a resync did not ask for) and moves `expected` to the
 * snapshot's seq. It never marks `initialDone`: the client does that once its sink has seen the
 * snapshot.
 *
 * @example
 * const step = applySnapshotFrame(stream, Opcode.SnapshotEnd, payload, undefined, maxSnapshotBytes);
 * if (step.kind === 'complete') sink.onSnapshot?.(step.snapshot);
 */
export function applySnapshotFrame(
  state: SnapshotStreamState,
  opcode: number,
  payload: Uint8Array,
  startMeta: SnapshotMeta | undefined,
  maxSnapshotBytes: number,
): SnapshotStep {
  if (startMeta) {
    const route = snapshotRoute(startMeta, state);
    state.assembly = { route, meta: startMeta, parts: [], bytes: 0 };
    return { kind: 'started', route };
  }
  const a = state.assembly;
  if (!a) return { kind: 'ignored' };
  if (opcode === Opcode.SnapshotChunk) {
    a.bytes += payload.byteLength;
    a.parts.push(decodeTextPayload(payload));
    if (a.bytes <= maxSnapshotBytes) return { kind: 'appended' };
    // Why: an incomplete snapshot is never applied; an oversize one is discarded whole.
    state.assembly = undefined;
    return { kind: 'oversize', route: a.route };
  }
  state.assembly = undefined;
  if (a.route === 'request' && state.awaitingRequests > 0) state.awaitingRequests--;
  if (a.route !== 'request' || a.meta.requestId === undefined) state.resyncPending = false;
  if (typeof a.meta.seq === 'number') state.expected = a.meta.seq;
  return { kind: 'complete', snapshot: { route: a.route, meta: a.meta, data: a.parts.join('') } };
}
