import { createHash } from 'node:crypto';

/**
 * Codex's identity of one command hook, as its trust check computes it (verified against
 * `codex app-server` `hooks/list` `currentHash` of Codex 0.171.0 for every event kind).
 * The identity is `{event_name, matcher?, hooks: [handler]}` with `null`s dropped, serialised as
 * compact JSON with keys sorted at every level, then SHA-256, hex, prefixed `sha256:`.
 */

/** Codex's snake_case label of each hook event (key and hash use it; its UI shows camelCase). */
export const CODEX_EVENT_LABELS: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  UserPromptSubmit: 'user_prompt_submit',
  SubagentStart: 'subagent_start',
  SubagentStop: 'subagent_stop',
  Stop: 'stop',
  Interrupt: 'interrupt',
  PreModelRequest: 'pre_model_request',
  PostModelRequest: 'post_model_request',
};

/** Events whose matcher Codex ignores (and leaves out of the identity). */
const MATCHERLESS_EVENTS = new Set(['UserPromptSubmit', 'Stop', 'Interrupt', 'PreModelRequest', 'PostModelRequest']);
/** Events that take `additionalContextLimit` (its default, 2500, is left out). */
const CONTEXT_LIMIT_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'SessionStart',
  'UserPromptSubmit',
  'SubagentStart',
]);
const CONTEXT_LIMIT_DEFAULT = 2500;
/** Codex's default handler timeout (s) and the clamp of its short-lived events. */
const DEFAULT_TIMEOUT_S = 600;
const SHORT_EVENTS = new Set(['SessionEnd', 'Interrupt']);
const SHORT_EVENT_TIMEOUT_S = { default: 1, min: 1, max: 3 } as const;

/** A command handler as written in hooks.json. */
export interface CodexCommandHandler {
  readonly command: string;
  readonly commandWindows?: string;
  readonly timeout?: number;
  readonly async?: boolean;
  readonly statusMessage?: string;
  readonly additionalContextLimit?: number;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== null && v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** The snake_case label of `event`, or null for an event Codex does not know. */
export function codexEventLabel(event: string): string | null {
  return CODEX_EVENT_LABELS[event] ?? null;
}

/**
 * The `trusted_hash` Codex expects for one command handler of `event` in a group with `matcher`.
 * `os` picks `commandWindows` on Windows, as Codex does.
 *
 * @example
 * codexHookHash('Stop', undefined, { command: '/bin/sh /h/.orca/agent-hooks/codex-hook.sh', timeout: 10 })
 * // 'sha256:…' (64 hex digits)
 */
export function codexHookHash(
  event: string,
  matcher: string | undefined,
  handler: CodexCommandHandler,
  os: 'posix' | 'windows' = 'posix',
): string {
  const label = codexEventLabel(event);
  if (label === null) throw new RangeError(`codex has no hook event ${event}`);
  const timeout = SHORT_EVENTS.has(event)
    ? Math.min(
        Math.max(handler.timeout ?? SHORT_EVENT_TIMEOUT_S.default, SHORT_EVENT_TIMEOUT_S.min),
        SHORT_EVENT_TIMEOUT_S.max,
      )
    : Math.max(handler.timeout ?? DEFAULT_TIMEOUT_S, 1);
  const limit = handler.additionalContextLimit;
  const identity = {
    event_name: label,
    matcher: MATCHERLESS_EVENTS.has(event) ? null : (matcher ?? null),
    hooks: [
      {
        type: 'command',
        command: os === 'windows' ? (handler.commandWindows ?? handler.command) : handler.command,
        timeout,
        async: handler.async ?? false,
        statusMessage: handler.statusMessage ?? null,
        additionalContextLimit:
          CONTEXT_LIMIT_EVENTS.has(event) && limit !== undefined && limit !== CONTEXT_LIMIT_DEFAULT ? limit : null,
      },
    ],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(identity)), 'utf8')
    .digest('hex')}`;
}
