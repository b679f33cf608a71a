import { RUNTIME_METHOD_LIMITS } from '@orca/wire/contract';
import { PACKAGE_VERSION } from './package-version.ts';

/** Mode of the data directory and every directory the host creates in it. */
export const DATA_DIR_MODE = 0o700;
/** Mode of every file the host writes in its data directory. */
export const DATA_FILE_MODE = 0o600;

/** Exit code: the command succeeded. */
export const EXIT_OK = 0;
/** Exit code: the request was refused (the refusal code is printed). */
export const EXIT_REFUSED = 1;
/** Exit code: the command line was wrong. */
export const EXIT_USAGE = 2;
/** Exit code of `orca start` forced out by a repeated SIGINT (128 + 2, as a shell reports it). */
export const EXIT_SIGINT = 130;
/** Exit code of `orca start` forced out by a repeated SIGTERM (128 + 15). */
export const EXIT_SIGTERM = 143;
/**
 * `orca start` ignores a repeated SIGINT/SIGTERM this soon after the first (the same request
 * delivered twice); a later one ends the process before the clean shutdown finished (ms).
 */
export const SHUTDOWN_FORCE_AFTER_MS = 3_000;

/** Default PTY size of a new pane (columns). */
export const DEFAULT_PANE_COLS = 120;
/** Default PTY size of a new pane (rows). */
export const DEFAULT_PANE_ROWS = 40;
/** Scrollback kept by each pane's `@xterm/headless` screen (lines; the board shows it when a pane opens). */
export const PANE_SCROLLBACK_LINES = 5000;
/** Raw output tail kept per pane for the status engine and `terminal show` (UTF-16 units). */
export const PANE_TAIL_MAX_CHARS = 16_384;
/**
 * Lines (scrollback + screen) an exited pane keeps for attach snapshots once its emulator is
 * freed (lines); its rendered screen and raw tail are kept whole.
 */
export const EXITED_PANE_SNAPSHOT_LINES = 200;

/**
 * Delay between new output/title evidence and the verdict recomputation it triggers (ms); output
 * within it is folded into one evaluation. Hook events are evaluated at once.
 */
export const OUTPUT_EVALUATION_DELAY_MS = 100;
/** Longest a hook-triggered evaluation waits for the emulator to parse earlier output (ms). */
export const HOOK_EVALUATION_SETTLE_MAX_MS = 20;
/** Longest an output-triggered evaluation waits for the emulator to catch up (ms). */
export const OUTPUT_EVALUATION_SETTLE_MAX_MS = 250;
/**
 * Longest a blocking call to a screen worker (an attach snapshot, a pane's final screen) waits
 * for the worker to parse the pane's output so far and answer (ms).
 */
export const SCREEN_WORKER_CALL_TIMEOUT_MS = 2_000;
/**
 * Output (UTF-16 units) a pane may have sent its screen worker and not yet seen parsed before the
 * pane's PTY is paused, as a terminal that cannot keep up stops reading; it resumes at the low mark.
 */
export const SCREEN_BACKLOG_HIGH_CHARS = 2 * 1024 * 1024;
/** See {@link SCREEN_BACKLOG_HIGH_CHARS} (UTF-16 units). */
export const SCREEN_BACKLOG_LOW_CHARS = 512 * 1024;
/** Most screen worker threads `orca start --screen-workers` accepts (threads). */
export const MAX_SCREEN_WORKERS = 64;
/**
 * Restarts of a crashed screen worker within {@link SCREEN_WORKER_RESTART_WINDOW_MS} before its
 * panes are handed to emulators in the host's thread.
 */
export const SCREEN_WORKER_RESTARTS_MAX = 3;
/** The window crashes of a screen worker are counted in (ms). */
export const SCREEN_WORKER_RESTART_WINDOW_MS = 10 * 60 * 1000;
/**
 * Most screen worker threads a host starts by default (threads); the default is one per core
 * beyond the one its own event loop runs on, and at least one.
 */
export const MAX_DEFAULT_SCREEN_WORKERS = 4;
/** Interval of the slow probe that notices foreground-process changes without output (ms). */
export const FOREGROUND_RECHECK_INTERVAL_MS = 2_000;
/**
 * A quiet pane whose foreground did not change is re-evaluated this often anyway (ms), so evidence
 * that only ages (a hook row going stale after 30 min) is noticed within a minute.
 */
export const QUIET_PANE_REEVALUATE_MS = 60_000;
/** How long `stop` command hooks reuse one discovery of a cwd's hook files (the prompt gate never does). */
export const STOP_DISCOVERY_REUSE_MS = 1_000;
/** Cwds whose `stop` discovery is kept at once. */
export const STOP_DISCOVERY_CACHE_MAX = 1_000;
/** How long `orca terminal wait` waits when no `--timeout` is given (ms). */
export const DEFAULT_WAIT_TIMEOUT_MS = 300_000;
/** How long a client waits for the runtime socket to accept a connection (ms). */
export const CLIENT_CONNECT_TIMEOUT_MS = 5_000;
/** Longest time a clean shutdown waits for pane processes to exit after SIGHUP (ms). */
export const SHUTDOWN_PTY_GRACE_MS = 1_000;

/** Bytes of random token material for the hook endpoint (32 lowercase hex chars). */
export const HOOK_TOKEN_BYTES = 16;
/** Bytes of random token material for the optional TCP RPC listener. */
export const RPC_TCP_TOKEN_BYTES = 24;
/** Bytes of random material of a one-time web pairing code (base64url, 24 chars). */
export const WEB_PAIRING_CODE_BYTES = 18;
/** Bytes of random material of a web session's secret (base64url, 43 chars). */
export const WEB_SESSION_SECRET_BYTES = 32;
/** The WebSocket subprotocol of the web client; credentials ride beside it as `orca.pair.CODE` / `orca.session.TOKEN`. */
export const WEB_SUBPROTOCOL = 'orca.v1';
/** Path of the web server's WebSocket endpoint. */
export const WEB_SOCKET_PATH = '/ws';
/** Largest WebSocket message the web server accepts (bytes). */
export const WEB_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** `logs/host.log` rotates past this size (bytes) … */
export const LOG_MAX_BYTES = 10 * 1024 * 1024;
/** … keeping at most this many rotated files (`host.log.1` newest). */
export const LOG_FILES_KEPT = 5;
/** How long a pairing code of `orca web pair` (and of `orca start --web`) stays usable by default. */
export const WEB_PAIRING_TTL_MS = 10 * 60_000;
/** Longest pairing-code lifetime `orca web pair --expires` accepts. */
export const WEB_PAIRING_TTL_MAX_MS = RUNTIME_METHOD_LIMITS.webPairingTtlMaxMs;
/** Unused pairing codes kept at most (the oldest is dropped first). */
export const WEB_PAIRING_CODES_MAX = 64;
/** A browser session not used for this long expires (its sockets end, its token is refused). */
export const WEB_SESSION_IDLE_MS = 7 * 24 * 60 * 60_000;
/** How often a session's last use is written to the store at most (ms). */
export const WEB_SESSION_TOUCH_MS = 60_000;
/** How often idle sessions are looked for (ms). */
export const WEB_SESSION_SWEEP_MS = 60_000;
/** Ended sessions are kept this long, so a page can be told why its token stopped working. */
export const WEB_SESSION_ENDED_KEEP_MS = 30 * 24 * 60 * 60_000;
/** Unauthenticated attempts (upgrades, token checks): bucket size and refill per second, host-wide. */
export const WEB_AUTH_BUCKET_SIZE = 40;
export const WEB_AUTH_BUCKET_PER_S = 10;
/** Failed attempts one address may make before it backs off; the backoff doubles from 1 s up to 60 s. */
export const WEB_AUTH_FREE_FAILURES = 5;
export const WEB_AUTH_BACKOFF_MAX_MS = 60_000;
/** Addresses whose failures are tracked at most (the oldest entry is dropped first). */
export const WEB_AUTH_ADDRESSES_MAX = 4_096;
/** Refused attempts are logged as one summary line per this interval (ms). */
export const WEB_REFUSAL_LOG_MS = 10_000;

/** Longest agent session id the host records from a hook payload (chars). */
export const SESSION_ID_MAX_CHARS = 200;
/** How long `orca stop` waits for the host (and with `--all` the keeper) to exit (ms). */
export const STOP_WAIT_MS = 20_000;
/** How long a host whose keeper link dropped tries to attach again while the keeper lives (ms). */
export const KEEPER_RELINK_TIMEOUT_MS = 30_000;
/** Attempts to take over one held pane when its link drops meanwhile. */
export const KEEPER_ATTACH_ATTEMPTS = 3;
/** Pause between attempts to attach again (ms). */
export const KEEPER_RELINK_RETRY_MS = 250;
/** Input typed into kept panes while their link is attached again, kept to send after (UTF-16 units). */
export const KEEPER_RELINK_QUEUE_MAX_CHARS = 1024 * 1024;
/** How long `orca stop --all` gives a keeper its host asked to stop before asking it itself (ms). */
export const KEEPER_STOP_GRACE_MS = 5_000;
/** How long a starting host waits for its taken-over panes' screens to be rebuilt from the keeper's replay (ms). */
export const KEPT_SCREEN_REBUILD_MAX_MS = 5_000;
/** How long a host waits for a PTY keeper it started to answer (ms). */
export const KEEPER_START_TIMEOUT_MS = 15_000;

/** Upper bound on how long `orca demo` may run before it gives up (ms). */
export const DEMO_TIMEOUT_MS = 120_000;

/** Version of this app (its package.json's), reported by `status.get`, `runtime.json` and `--version`. */
export const APP_VERSION = PACKAGE_VERSION;

/**
 * After a permission row arrives, the pane is evaluated again this long after the engine's
 * dialog-draw grace ends (ms), so a dialog denied within the grace heals on a quiet screen.
 */
export const DIALOG_RECHECK_MARGIN_MS = 50;
/** Status rows (hook + OSC) kept in memory per pane for fusion (rows). */
export const PANE_STATUS_ROWS_KEPT = 64;

/** The byte that detaches `orca attach` (Ctrl-]). */
export const ATTACH_DETACH_BYTE = 0x1d;
/** `orca attach` says at most this often that the host refused keys during a prompt delivery (ms). */
export const ATTACH_REFUSED_NOTICE_MS = 2_000;
/** After a pane's process exits, how long its attached streams wait for trailing output before they end (ms). */
export const PANE_EXIT_DRAIN_MS = 100;

/** Longest `dispatch` waits for the agent to show the injected draft before it sends the submit key (ms). */
export const SUBMIT_ECHO_WAIT_MS = 1_500;
/** Longest `dispatch` waits for readiness plus a proven submission when no `--timeout` is given (ms). */
export const DISPATCH_DEFAULT_TIMEOUT_MS = 30_000;
/** How often `dispatch` re-checks readiness and submission (ms). */
export const DISPATCH_POLL_MS = 100;
/** A ready agent's output must have paused this long before `dispatch` writes the prompt (ms). */
export const DISPATCH_QUIET_MS = 500;
/** …but `dispatch` waits for that pause at most this long once the agent is ready (ms). */
export const DISPATCH_QUIET_MAX_MS = 3_000;
/** After the submit key, how long a draft may stay in the composer before one more submit key (ms). */
export const SUBMIT_RETRY_AFTER_MS = 1_500;
/**
 * When the screen shows the prompt taken and the agent has a prompt hook, how long `dispatch`
 * still waits for that hook (the stronger, per-prompt proof) before the screen proves it (ms).
 * Real Codex 0.171.0 shows its first turn working up to ~1.5 s before its UserPromptSubmit hook arrives.
 */
export const SCREEN_PROOF_HOOK_GRACE_MS = 3_000;
/** After the submission, how long `dispatch` waits to report the `working` stage (ms); not required. */
export const DISPATCH_WORKING_WAIT_MS = 3_000;

/** Largest prompt `dispatch` and the queue take (bytes of UTF-8); larger ones are refused with `prompt_too_large`. */
export const PROMPT_MAX_BYTES = 64 * 1024;
/** A screen-proven prompt's hook still expected this long; it then proves no later prompt (ms). */
export const PROMPT_HOOK_OWED_MS = 30_000;
/** Raw input (a keyboard, `terminal send`) this recent keeps a delivery waiting: someone is typing (ms). */
export const TYPING_QUIET_BEFORE_DELIVERY_MS = 2_000;
/** After the submit key, how long raw input stays refused (the retry window); then only the proof is awaited (ms). */
export const RAW_INPUT_REOPEN_AFTER_MS = 3_500;
/** How long a stopping host lets deliveries that wrote their text send their submit key (ms). */
export const DELIVERY_STOP_GRACE_MS = 3_000;
/** Longest `--timeout` a dispatch or `orca queue wait` takes (ms): 24 h. */
export const WAIT_TIMEOUT_MAX_MS = RUNTIME_METHOD_LIMITS.waitTimeoutMaxMs;
/** Prompt-submit hook events kept per pane for the per-prompt proof of a dispatch (events). */
export const PROMPT_HOOKS_KEPT = 32;
/** Prompts a pane's queue holds that are not delivered yet (queued or delivering); more is `queue_full`. */
export const QUEUE_MAX_PENDING_PER_PANE = 100;
/** Delivered, failed, cancelled and expired items kept per pane for `orca queue ls` (items; oldest dropped). */
export const QUEUE_FINISHED_KEPT_PER_PANE = 200;
/** A queued prompt's proof must arrive this long after its text was written (ms), else it fails `prompt_not_submitted`. */
export const QUEUE_PROOF_WINDOW_MS = 30_000;
/** How long `orca queue wait` waits when no `--timeout` is given (ms). */
export const QUEUE_WAIT_DEFAULT_TIMEOUT_MS = 600_000;
/** Longest `--expires` a queued prompt takes (ms): 7 days. */
export const QUEUE_EXPIRES_MAX_MS = 7 * 24 * 60 * 60 * 1000;

/** Name of the file in the data directory holding the TCP RPC bearer token (mode 0600; removed at stop). */
export const RUNTIME_TOKEN_FILE_NAME = 'runtime-token';
/** Environment variable a CLI reads the TCP RPC bearer token from when `--token-file` is not given. */
export const RUNTIME_TOKEN_ENV = 'ORCA_RUNTIME_TOKEN';

/**
 * Longest Unix socket path the host binds (bytes, without the NUL): `sun_path` is 108 bytes on
 * Linux, 104 on macOS and the BSDs.
 */
export const UNIX_SOCKET_PATH_MAX_BYTES = process.platform === 'linux' ? 107 : 103;

/** Hook rows kept per pane (rows); older ones are deleted as new ones arrive. */
export const HOOK_ROWS_PER_PANE_MAX = 1_000;
/** Hook row bytes (raw envelope + normalised row, as stored JSON) kept per pane (bytes). */
export const HOOK_ROWS_PER_PANE_MAX_BYTES = 8 * 1024 * 1024;
/** Age after which a hook row is deleted by compaction (ms): 7 days. */
export const HOOK_ROW_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Interval of the host's automatic store compaction (ms): hourly, and once at every start. */
export const STORE_COMPACTION_INTERVAL_MS = 60 * 60 * 1000;
/** Size the WAL file is truncated back to after a checkpoint (bytes). */
export const STORE_WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
/** Shortest interval between two "hook events for unknown panes dropped" log lines (ms). */
export const UNKNOWN_PANE_DROP_LOG_INTERVAL_MS = 10_000;

/** Verdict transitions kept per pane for `orca status explain` (newest). */
export const TRANSITIONS_KEPT_PER_PANE = RUNTIME_METHOD_LIMITS.transitionsKeptPerPane;
/**
 * A transition keeps the evidence it was decided on (what `status explain --replay` evaluates
 * again) at most this often per pane (ms); one into a wait or an error, or a pane's end, always
 * does. Why: ~16 KB each, and a churning fleet changes status ~1,000 times a second; storing it for
 * every change cost the stress bench about a third of its hook → verdict p99 (the explanation
 * itself is still stored for every change).
 */
export const TRANSITION_EVIDENCE_MIN_INTERVAL_MS = 1_000;
/** `notify.json` is looked at for changes at most this often (ms). */
export const NOTIFY_CONFIG_RECHECK_MS = 1_000;
/** Notification delivery attempts kept in the store (newest). */
export const NOTIFY_ATTEMPTS_KEPT = 5_000;
/** Retry delays of a notification delivery: 1 s doubling to at most 30 s … */
export const NOTIFY_RETRY_FIRST_MS = 1_000;
export const NOTIFY_RETRY_MAX_MS = 30_000;
/** … until it is this old, then it is given up (logged as failed). */
export const NOTIFY_GIVE_UP_MS = 10 * 60_000;
/** One webhook request may take this long (ms). */
export const NOTIFY_HTTP_TIMEOUT_MS = 5_000;
/** A command sink may run this long by default (ms). */
export const NOTIFY_COMMAND_TIMEOUT_MS = 10_000;
/** After a hook says "waiting" with no prompt on the screen, look again once the dialog had time to draw (ms past its grace). */
export const NOTIFY_DIALOG_CONFIRM_MARGIN_MS = 300;
