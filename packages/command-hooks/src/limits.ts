/** Most characters of hook stdout kept; more kills the process group and fails the run. */
export const MAX_STDOUT_CHARS = 1_000_000;
/** Most characters of hook stderr kept; more is drained and dropped (`stderrTruncated`), no kill. */
export const MAX_STDERR_CHARS = 1_000_000;
/** Largest delay Node's timers honour (2^31 - 1 ms); bigger ones fire at once, so timeouts clamp here. */
export const MAX_TIMER_MS = 2_147_483_647;
/** After exit or kill, the longest wait (ms) for stdout/stderr to close before our pipe ends are destroyed. */
export const EXIT_DRAIN_GRACE_MS = 200;
/** afterToolUse `output` is cut to this many characters before marshalling. */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;
/** Merged injectContext cap in characters, the truncation note included. */
export const MAX_INJECT_CONTEXT_CHARS = 10_000;
/** `ORCA_HOOK_DEPTH` at or above this suppresses every command-hook spawn. */
export const MAX_HOOK_DEPTH = 1;
/** Detached hooks running at once per thread. */
export const MAX_DETACHED_RUNNING = 8;
/** Detached hooks waiting per thread; one more is dropped with a record. */
export const MAX_DETACHED_PENDING = 100;
/** Session env: most keys per conversation. */
export const MAX_SESSION_ENV_KEYS = 256;
/** Session env: longest value in characters. */
export const MAX_SESSION_ENV_VALUE_CHARS = 65_536;
/** Echo of outside text in messages and errors, in characters. */
export const MAX_ECHO_CHARS = 200;
/** A hook's command as quoted in a fail-closed agent message, in characters. */
export const MAX_COMMAND_ECHO_CHARS = 120;
/** Default Cursor `loop_limit` / Orca `loopLimit` for stop follow-ups. */
export const DEFAULT_LOOP_LIMIT = 5;
/** Default timeouts per dialect, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = { claude: 600_000, cursor: 30_000, orca: 30_000 } as const;
/** Name of the recursion-guard variable every hook child receives. */
export const HOOK_DEPTH_ENV = 'ORCA_HOOK_DEPTH';
