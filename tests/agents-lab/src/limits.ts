/** Limits and timings of the agents lab, with their units. */

/** A model request body larger than this is answered without being parsed. */
export const MODEL_REQUEST_MAX_BYTES = 32 * 1024 * 1024;
/** Characters per streamed text delta. */
export const STREAM_DELTA_CHARS = 12;
/** Pause between deltas of a normal (fast) streamed reply, ms. */
export const STREAM_DELTA_PAUSE_MS = 15;
/** Pane size every lab run uses (columns × rows). */
export const LAB_PANE_COLS = 120;
export const LAB_PANE_ROWS = 40;
/** How often a lab wait re-reads the rendered screen, ms. */
export const SCREEN_POLL_MS = 100;
/** How often the verdict sampler reads the pane's verdict, ms (the cadence). */
export const VERDICT_SAMPLE_INTERVAL_MS = 200;
/** Grace after a moment began (its marker first on screen) before samples are judged, ms. */
export const VERDICT_GRACE_MS = 1_000;
/**
 * How long a moment's marker must stay off the screen before the moment counts as left, ms: a TUI
 * redrawing its whole frame (Ink clears and repaints once its output outgrows the viewport) can be
 * read half drawn for one poll.
 */
export const MARKER_GONE_CONFIRM_MS = 400;
/** Default span a moment is sampled for, ms. */
export const LAB_MOMENT_HOLD_MS = 2_600;
/** How long an optional moment's skip condition must hold before the moment is skipped, ms. */
export const SKIP_STABLE_MS = 3_000;
/** Longest a `codex app-server` request may take in the lab, ms. */
export const APP_SERVER_TIMEOUT_MS = 20_000;
