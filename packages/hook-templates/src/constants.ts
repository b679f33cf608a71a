/**
 * Every number of the hook contract, with its unit, in one place (spec §1–§6).
 * Tests and docs reference these instead of repeating literals.
 */

/** Default hook timeout written into agent configs, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 10;
/** Claude Code on Windows: shorter timeout (#13285), in seconds. */
export const CLAUDE_WINDOWS_HOOK_TIMEOUT_S = 2;
/** Gemini's config timeout is in milliseconds. */
export const GEMINI_HOOK_TIMEOUT_MS = 10_000;
/** Grok's config timeout: bounded reader (5 + 1.5 s) plus curl (8 s) fit inside, in seconds. */
export const GROK_HOOK_TIMEOUT_S = 15;
/** Copilot's per-handler `timeoutSec`. */
export const COPILOT_HOOK_TIMEOUT_S = 5;
/** curl `--connect-timeout`, in seconds. */
export const CURL_CONNECT_TIMEOUT_S = 0.5;
/** curl `--max-time` for every agent but Grok, in seconds. */
export const CURL_MAX_TIME_S = 1.5;
/** curl `--max-time` for Grok, in seconds. */
export const GROK_CURL_MAX_TIME_S = 8;
/** PowerShell `Invoke-WebRequest -TimeoutSec`, in seconds. */
export const PWSH_POST_TIMEOUT_S = 2;
/** Bounded reader: wait at most this long for the first byte, in seconds. */
export const BOUNDED_READER_FIRST_BYTE_S = 5;
/** Bounded reader: idle time after the last byte before giving up, in seconds. */
export const BOUNDED_READER_IDLE_S = 1.5;
/** Most lines of an endpoint file that are read. */
export const ENDPOINT_MAX_LINES = 64;
/** Most digits of ORCA_AGENT_HOOK_PORT. */
export const ENDPOINT_PORT_MAX_DIGITS = 5;
/**
 * Every character ORCA_AGENT_HOOK_TOKEN may contain (`[A-Za-z0-9._-]`), spelled out because a
 * shell `case` range depends on the locale. A token with any other byte (a CR/LF would inject a
 * header into curl's request) is treated as absent: the script exits 0 without a request.
 */
export const HOOK_TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-';
/** Spool file is no longer appended to at or past this size, in bytes (5 MiB). */
export const SPOOL_MAX_BYTES = 5 * 1024 * 1024;
/** A spool file untouched this long is reset, in days. */
export const SPOOL_RESET_AFTER_DAYS = 7;
/** Spool file name keeps this many trailing characters of the pane key. */
export const SPOOL_PANE_KEY_CHARS = 36;
/** Most ancestors whose environment `recoverEnv` reads. */
export const RECOVER_ENV_MAX_ANCESTORS = 8;
/** Longest `GROK_HOME` value forwarded, in characters. */
export const GROK_HOME_MAX_CHARS = 4096;
/** Mode of generated POSIX scripts. */
export const POSIX_SCRIPT_MODE = 0o755;
/** Mode of generated Windows scripts and config files. */
export const CONFIG_FILE_MODE = 0o644;
/** Claude Code version assumed when none is given (what it knows decides the gate). */
export const CLAUDE_ASSUMED_VERSION = '1.0.64';
/** Codex version from which hooks need a trusted hash. */
export const CODEX_TRUST_MIN_VERSION = '0.129.0';
/** Directory (under the home) holding the managed scripts. */
export const AGENT_HOOKS_DIR = '.orca/agent-hooks';

/**
 * Longest an agent's `--version` may take before the installer goes on without it (ms). Why 15 s:
 * Gemini CLI 0.61.0 loads its whole Node bundle to answer; on a 2-core machine running other suites
 * it passed 5 s and the hooks went in without its version (seen in `pnpm test`).
 */
export const AGENT_VERSION_TIMEOUT_MS = 15_000;

/**
 * opencode status plugin: longest one managed script may run before the plugin kills it, in ms
 * (curl's own `--max-time` plus the script's start on a loaded machine).
 */
export const OPENCODE_PLUGIN_CHILD_TIMEOUT_MS = 5_000;
/** opencode status plugin: most events waiting for the script; newer ones are dropped past this. */
export const OPENCODE_PLUGIN_MAX_PENDING = 32;
/** opencode status plugin: longest prompt text posted with `UserPromptSubmit`, in characters. */
export const OPENCODE_PLUGIN_MAX_PROMPT_CHARS = 256 * 1024;
/** opencode status plugin: most sessions whose parent it remembers (subagents are told apart by it). */
export const OPENCODE_PLUGIN_MAX_SESSIONS = 256;
