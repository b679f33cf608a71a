/** A serialized screen, as the backend's terminal emulator produces it. */
export interface SerializedScreen {
  data: string;
  cols?: number;
  rows?: number;
  truncated?: boolean;
  truncatedByByteBudget?: boolean;
  cwd?: string;
}

/**
 * One open terminal as the host sees it. `serialize` is synchronous, so no live output can
 * interleave with a snapshot being published.
 */
export interface TerminalPort {
  readonly cols: number;
  readonly rows: number;
  /** Writes input; `false` = the backend refused it (e.g. a read-only pane). */
  write(data: string): boolean;
  resize(cols: number, rows: number): void;
  serialize(options: { scrollbackRows: number; maxBytes: number }): SerializedScreen | null;
  /** Subscribes to PTY output; returns the unsubscribe function. */
  onOutput(listener: (data: string) => void): () => void;
  /** Subscribes to the terminal ending (its process exited); the host then ends the stream. Returns the unsubscribe function. */
  onEnd?(listener: () => void): () => void;
  /** The backend can report source byte ranges (enables `ackOutputSourceRanges`). */
  readonly sourceRanges?: boolean;
  /**
   * The stream ended (Unsubscribe, or its connection closed): a size this port claimed is released,
   * so the backend may restore what was there before. Called at most once.
   */
  release?(): void;
}

/** The host's terminals, by handle. */
export interface TerminalBackend {
  /** The port for a handle, or null when the handle is stale. */
  open(handle: string): TerminalPort | null;
}
