/**
 * Every wire limit of `@orca/wire`, with its unit in the name. Tests and docs reference these
 * instead of repeating numbers (KiB = 1024 bytes).
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Limits of the relay framing (`@orca/wire/relay-frames`). */
export const RELAY_LIMITS = {
  /** Frame header: `type u8 | seq u32 | ack u32 | length u32`, big-endian. */
  headerBytes: 13,
  /** Largest payload a relay frame may carry. */
  maxPayloadBytes: 16 * MiB,
  /** Bytes allowed before the sentinel's first byte; more is `overflow`. */
  maxBytesBeforeSentinel: 64 * KiB,
  /** Small pushed chunks are copied into owned blocks of at least this size. */
  ownedBlockBytes: 4 * KiB,
  /** Default time a request waits for its response. */
  requestTimeoutMs: 30_000,
  /** Default interval between keepalive frames. */
  keepaliveMs: 5_000,
  /** Default silence (and un-acked age) after which the link is dead. */
  deadAfterMs: 20_000,
  /** Default number of consecutive request timeouts after which the link is dead. */
  deadAfterTimeouts: 3,
  /** Un-acked send records kept for the dead-link check (oldest dropped beyond it). */
  maxUnackedRecords: 65_536,
} as const;

/** Limits of the terminal stream (`@orca/wire/terminal-stream`). */
export const TERMINAL_LIMITS = {
  /** Terminal frame header length. */
  headerBytes: 16,
  /** Largest Output / SnapshotChunk text payload, in UTF-8 bytes. */
  chunkBytes: 48 * KiB,
  /** Host output batch before a flush. */
  outputBatchBytes: 64 * KiB,
  /** Per-stream queue beyond the window; over it the queue is dropped and a snapshot follows. */
  pendingQueueCapBytes: 256 * KiB,
  /** Per-stream flow-control window. */
  streamWindowInitialBytes: 512 * KiB,
  streamWindowMaxBytes: 2 * MiB,
  /** Per-connection flow-control window. */
  connectionWindowInitialBytes: 2 * MiB,
  connectionWindowMaxBytes: 8 * MiB,
  /** Client ack batching. */
  clientAckBatchBytes: 192 * KiB,
  clientAckFlushMs: 4,
  /** Largest terminal size a client may ask for (Subscribe viewport, Resize, ClaimViewport), in cells. */
  // Why: the emulator allocates per cell; one 65535×65535 Resize exhausted the host's heap (issue 16).
  maxCols: 1000,
  maxRows: 500,
  /** Streams per connection. */
  maxActiveStreams: 128,
  maxPendingOpens: 32,
  /** JSON payload pre-scan limits. */
  maxJsonBytes: 8 * MiB,
  maxJsonStructuralTokens: 262_144,
  maxJsonDepth: 32,
  /** Largest assembled snapshot a client accepts. */
  maxSnapshotBytes: 8 * MiB,
  /** Subscribe retry backoff after `terminal_stream_limit_exceeded`. */
  subscribeRetryInitialMs: 500,
  subscribeRetryMaxMs: 30_000,
} as const;

/** Snapshot byte/row budgets (`@orca/wire/terminal-stream`). */
export const SNAPSHOT_BUDGETS = {
  /** Desktop initial snapshot: visible screen only. */
  desktopInitialScrollbackRows: 0,
  /** Mobile tries these row counts in order until the snapshot fits `mobileInitialMaxBytes`. */
  mobileInitialScrollbackRows: [1000, 500, 250, 100, 25, 0],
  mobileInitialMaxBytes: 512 * KiB,
  /** An explicit SnapshotRequest is capped at this size. */
  requestedMaxBytes: 2 * MiB,
  /** Geometry when the backend reports none. */
  fallbackCols: 80,
  fallbackRows: 24,
} as const;

/** Limits of the runtime RPC (`@orca/wire/rpc`). */
export const RPC_LIMITS = {
  /** Largest request accepted by the dispatcher, checked before parsing. */
  maxRequestBytes: 8 * MiB,
  /** Concurrent long-polls before `runtime_busy`. */
  maxConcurrentLongPolls: 16,
  /** Keepalive interval on long-polls. */
  keepaliveIntervalMs: 10_000,
} as const;
