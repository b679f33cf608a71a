/**
 * Every constant of the engine, with its unit in the name or the doc, plus the closed tables
 * (agent ids, blocked reasons) and their helpers.
 */

/** A status row older than this (now − receivedAt) is invisible. Milliseconds. */
export const AGENT_STATUS_STALE_AFTER_MS = 1_800_000;
/**
 * A permission row (`PermissionRequest`) younger than this is not healed by a screen with no
 * dialog: Claude Code 2.1.332 fires the hook and sets its `✳` title, then draws the dialog about
 * 0.4 s later (agents lab). Milliseconds.
 */
export const PERMISSION_DIALOG_DRAW_GRACE_MS = 1_500;
/**
 * A working title set less than this after a done row is the agent's last spinner frame, not a
 * new turn: Codex 0.171.0 sets one ~5 ms after its Stop hook, then its plain title (agents lab). Milliseconds.
 */
export const SPINNER_FRAME_AFTER_DONE_MS = 300;
/** Bound on one foreground probe (read + confirm). Milliseconds. */
export const PROBE_TIMEOUT_MS = 2000;
/** The wait stamp scans at most once per this interval. Milliseconds. */
export const WAIT_CHECK_MIN_INTERVAL_MS = 50;
/** Lowercase characters of the previous chunk prefixed to the keyword check. UTF-16 units. */
export const WAIT_KEYWORD_CARRY_CHARS = 31;
/** Matchers read at most this many non-blank lines from the bottom. Lines. */
export const MATCH_WINDOW_LINES = 30;
/** Matchers read at most this many characters from the bottom. UTF-16 units. */
export const MATCH_WINDOW_CHARS = 16_384;
/** Approval menus (Cursor, Claude) must sit in this many bottom non-blank lines. Lines. */
export const APPROVAL_WINDOW_LINES = 8;
/** Minimum key-bound choice rows of an approval menu. Rows. */
export const APPROVAL_MIN_CHOICES = 2;
/** Generic press-enter rule: context characters before the phrase. Characters. */
export const KEYWORD_BEFORE_CHARS = 600;
/** Generic press-enter rule: context characters after the phrase. Characters. */
export const KEYWORD_AFTER_CHARS = 200;
/** `permission required` needs its choices within this many characters. Characters. */
export const PERMISSION_CHOICES_WITHIN_CHARS = 1500;
/** A Codex composer line must sit within this many bottom non-blank lines. Lines. */
export const COMPOSER_BOTTOM_LINES = 4;
/** One unterminated OSC 9999 frame is released past this size. UTF-16 units. */
export const OSC_MAX_FRAME_CHARS = 65_536;

/** Caps on OSC 9999 payload fields. Characters (subagents: count; JSON: depth / tokens). */
export const OSC_FIELD_CAPS = {
  agentType: 40,
  model: 120,
  toolName: 60,
  toolInput: 160,
  lastAssistantMessage: 8000,
  interactivePrompt: 16_000,
  prompt: 16_000,
} as const;
/** Max subagents in one OSC payload. Count. */
export const OSC_MAX_SUBAGENTS = 32;
/** Max chars of one subagent id. Characters. */
export const OSC_SUBAGENT_ID_CHARS = 64;
/** Max nesting depth of OSC JSON. Levels. */
export const OSC_MAX_JSON_DEPTH = 16;
/** Max JSON tokens (values + keys) of one OSC payload. Count. */
export const OSC_MAX_JSON_TOKENS = 4096;

/** tui-idle poll interval. Milliseconds. */
export const TUI_IDLE_POLL_INTERVAL_MS = 2000;
/** Quiet needed before weak evidence satisfies tui-idle. Milliseconds. */
export const TUI_IDLE_QUIESCENCE_MS = 3000;
/** Send guard recheck interval while no agent runs. Milliseconds. */
export const SEND_GUARD_RECHECK_INTERVAL_MS = 150;
/** Send guard gives up this long after the first check. Milliseconds. */
export const SEND_GUARD_RECHECK_WINDOW_MS = 1050;
/** Title classifier memo size. Entries. */
export const TITLE_MEMO_ENTRIES = 256;
/** Memo of normalized window lines (a pane re-polled shows mostly the same lines). Entries. */
export const LINE_MEMO_ENTRIES = 4096;
/** Echo of a bad value inside an error message. Characters. */
export const ERROR_ECHO_CHARS = 200;
/** How far above an approval menu's rows its question may stand (non-blank lines of the window). */
export const APPROVAL_QUESTION_WINDOW_LINES = 16;
/** Key-hint footer lines a menu may have under its last row (`Esc to cancel · Tab to amend`). */
export const MENU_FOOTER_LINES = 2;
