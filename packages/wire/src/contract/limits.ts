/** Bounds of the runtime methods' params (the host reads its own constants from here). */
export const RUNTIME_METHOD_LIMITS = {
  /** Longest `timeoutMs` of `terminal.dispatch`, `terminal.wait` and `queue.wait` (24 h). */
  waitTimeoutMaxMs: 24 * 60 * 60 * 1000,
  /** Transitions the host keeps per pane: the largest `status.explain` `limit`. */
  transitionsKeptPerPane: 100,
  /** Longest life of a `web.pair` pairing code (24 h); at least 1 s. */
  webPairingTtlMaxMs: 24 * 60 * 60_000,
  webPairingTtlMinMs: 1_000,
  /** Largest `notify.log` `limit`. */
  notifyLogMax: 5_000,
  /** Longest handle, pane name. */
  handleMaxChars: 200,
  /** Most handles one `resume.run` names. */
  resumeHandlesMax: 1_000,
} as const;
