// The public surface of the terminal-stream client: its options, its sink and its methods.
import type { WireClock } from '../clock.ts';
import type { ReceivePolicy } from '../receive-policy.ts';
import type { ClientType } from './capabilities.ts';
import type { ReceiveStats } from './frame.ts';
import type { AssembledSnapshot } from './snapshot-assembly.ts';

/** What a client reports for one stream. */
export interface TerminalStreamSink {
  /** Fires when the initial snapshot has been applied (not at the `subscribed` event). */
  onSubscribed?(info: { streamId: number; cols: number; rows: number; capabilities: readonly string[] }): void;
  /** Output to render, in order, never twice. */
  onOutput?(text: string): void;
  /** A complete snapshot; `recovery` is applied after a clear-screen. */
  onSnapshot?(snapshot: AssembledSnapshot): void;
  onError?(message: string): void;
  onEnd?(): void;
  /** The host refused input (needs the `writeUnavailable` grant). */
  onWriteUnavailable?(): void;
  /** The host's geometry changed (Resized frame). */
  onResized?(resized: { cols: number; rows: number; displayMode: string; reason: string }): void;
  /** The pane's metadata changed (Metadata frame). */
  onMetadata?(metadata: { cwd: string }): void;
}

/** Options of {@link createTerminalClient}. */
export interface TerminalClientOptions {
  send(bytes: Uint8Array): boolean | undefined;
  /** Starts the streaming RPC `terminal.multiplex`; its events come back through `handleEvent`. */
  call(method: string, params: Record<string, unknown>): Promise<unknown> | undefined;
  type: ClientType;
  clientId?: string;
  /** Default `'close'` for desktop, `'drop'` for mobile. */
  policy?: ReceivePolicy;
  clock?: WireClock;
  maxSnapshotBytes?: number;
}

/** The client side of `terminal.multiplex`. */
export interface TerminalClient {
  subscribe(options: {
    terminal: string;
    viewport?: { cols: number; rows: number };
    sink?: TerminalStreamSink;
  }): number;
  unsubscribe(streamId: number): void;
  input(streamId: number, text: string): boolean;
  resize(streamId: number, cols: number, rows: number): boolean;
  claimViewport(streamId: number, cols: number, rows: number): boolean;
  /** `false` (and no frame) without the `outputPause` grant. */
  setOutputPaused(streamId: number, paused: boolean): boolean;
  requestSnapshot(streamId: number, options?: { scrollbackRows?: number }): boolean;
  receive(bytes: Uint8Array): void;
  handleEvent(event: unknown): void;
  /** The connection dropped: discard all stream state (a reconnect re-subscribes from scratch). */
  drop(): void;
  stats(): ReceiveStats & { errors: string[] };
}
