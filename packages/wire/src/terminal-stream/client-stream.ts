// The per-stream state of the terminal-stream client and its initial value.
import { TERMINAL_LIMITS } from '../limits.ts';
import { type Grant, NO_GRANT } from './capabilities.ts';
import type { TerminalStreamSink } from './client-types.ts';
import type { SnapshotStreamState } from './snapshot-assembly.ts';

/** Per-stream state of the client (the snapshot fields are {@link SnapshotStreamState}'s). */
export interface ClientStream extends SnapshotStreamState {
  id: number;
  terminal: string;
  viewport: { cols: number; rows: number } | undefined;
  sink: TerminalStreamSink;
  sent: boolean;
  grant: Grant;
  generation: string | undefined;
  subscribed: { cols: number; rows: number } | undefined;
  receivedBytes: number;
  paused: boolean;
  /** Set by `terminal_stream_limit_exceeded`: the `end` that follows schedules a retry. */
  retryOnEnd: boolean;
  retryDelayMs: number;
}

/** A stream just subscribed by the caller: nothing sent, no grant, no snapshot yet. */
export function newClientStream(
  id: number,
  terminal: string,
  viewport: { cols: number; rows: number } | undefined,
  sink: TerminalStreamSink,
): ClientStream {
  return {
    id,
    terminal,
    viewport,
    sink,
    sent: false,
    grant: NO_GRANT,
    generation: undefined,
    subscribed: undefined,
    initialDone: false,
    expected: undefined,
    resyncPending: false,
    awaitingRequests: 0,
    assembly: undefined,
    receivedBytes: 0,
    paused: false,
    retryOnEnd: false,
    retryDelayMs: TERMINAL_LIMITS.subscribeRetryInitialMs,
  };
}
