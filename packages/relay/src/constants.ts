/**
 * Every limit and timing rule of `@orca/relay`, with its unit in the name.
 * Tests and docs reference these instead of repeating numbers.
 */

/** Largest accepted hook POST body, in bytes (declared or streamed). */
export const MAX_HOOK_BODY_BYTES = 1_000_000;
/** A hook request whose body is incomplete this long after arrival gets 408 and is closed. */
export const SLOW_CLIENT_TIMEOUT_MS = 5_000;
/**
 * Headers of a hook request (also of an idle connection that never sent a byte) must be complete
 * this long after the connection or the previous response; else the socket is closed.
 */
export const HOOK_HEADERS_TIMEOUT_MS = SLOW_CLIENT_TIMEOUT_MS;
/** A whole hook request (headers and body) must arrive within this long. */
export const HOOK_REQUEST_TIMEOUT_MS = SLOW_CLIENT_TIMEOUT_MS;
/** An idle keep-alive hook connection is closed this long after its last response. */
export const HOOK_KEEP_ALIVE_TIMEOUT_MS = SLOW_CLIENT_TIMEOUT_MS;
/**
 * How often the listener sweeps connections for the headers and request timeouts. A stalled
 * socket is held at most the timeout plus this interval (Node's default of 30 s held them ~22 s).
 */
export const HOOK_TIMEOUT_CHECK_INTERVAL_MS = 250;
/**
 * Most simultaneous connections to one hook listener; further ones are closed at once (counted as
 * `connections`). Hook scripts open one short connection per event, so 256 covers hundreds of
 * panes firing together while bounding the sockets an idle-connection flood can pin.
 */
export const MAX_HOOK_CONNECTIONS = 256;
/** Deepest nesting allowed in a hook payload (objects and arrays). */
export const MAX_PAYLOAD_JSON_DEPTH = 64;
/** Most structural JSON tokens (`{}[],:` outside strings) in one parsed text. */
export const MAX_JSON_STRUCTURAL_TOKENS = 131_072;
/** Longest accepted paneKey, in characters. */
export const MAX_PANE_KEY_CHARS = 200;
/** Longest accepted metadata string (tabId, env, version, …), in characters. */
export const MAX_METADATA_CHARS = 4_096;
/** Replay cache: most panes remembered by a guest relay. */
export const REPLAY_CACHE_MAX_PANES = 256;
/** Replay cache: most bytes (serialized events) remembered by a guest relay. */
export const REPLAY_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/** Largest encoded relay frame payload the fs bridge will produce or send. */
export const FS_BRIDGE_MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** Endpoint tmp files older than this are swept. */
export const ENDPOINT_TMP_STALE_MS = 5 * 60_000;
/** Most directory entries examined by one endpoint tmp sweep. */
export const ENDPOINT_TMP_SWEEP_MAX_ENTRIES = 1_024;
/** Queued guest events (bytes) before only each pane's latest event is kept. */
export const GUEST_EVENT_QUEUE_SUPERSEDE_BYTES = 4 * 1024 * 1024;
/** Host waits this long for a guest relay's READY sentinel. */
export const SENTINEL_TIMEOUT_MS = 10_000;
/** Bytes allowed before the sentinel's first byte. */
export const PRE_SENTINEL_MAX_BYTES = 64 * 1024;
/** Kept tail of a guest's stderr, in bytes. */
export const STDERR_TAIL_BYTES = 64 * 1024;
/** Longest a guest install may run. */
export const INSTALL_TIMEOUT_MS = 30_000;
/** Transient startup failures retried this many times. */
export const TRANSIENT_RETRIES = 2;
/** Delay between transient retries. */
export const TRANSIENT_RETRY_DELAY_MS = 2_000;
/** Upper bound of any guest cooldown. */
export const COOLDOWN_CAP_MS = 10 * 60_000;
/** Cooldown base after an ordinary startup failure. */
export const COOLDOWN_STARTUP_BASE_MS = 60_000;
/** Cooldown base after a running guest's link died. */
export const COOLDOWN_LINK_DEATH_BASE_MS = 10_000;
/** Cooldown base when the guest has no node ≥ 18 or is unavailable. */
export const COOLDOWN_UNAVAILABLE_BASE_MS = 10 * 60_000;
/** A guest up at least this long has its failure count reset when its link dies. */
export const STABLE_UPTIME_MS = 2 * 60_000;
/** Slack added to a cooldown before the restart timer fires. */
export const RESTART_SLACK_MS = 250;
/** `remove` waits this long for a guest relay to exit after SIGTERM, then sends SIGKILL. */
export const REMOVE_KILL_GRACE_MS = 2_000;
/** Timeout of a spawner's `isRunning` probe. */
export const PROBE_TIMEOUT_MS = 10_000;
/** Host-side request timeout on the relay channel. */
export const HOST_REQUEST_TIMEOUT_MS = 30_000;
/** Version of the hook protocol written into endpoint files (`ORCA_AGENT_HOOK_VERSION`). */
export const HOOK_PROTOCOL_VERSION = '2';
