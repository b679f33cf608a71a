/**
 * Every hook source, in the relay's canonical order (`@orca/relay` `HOOK_SOURCES`). Floor-1
 * packages import nothing of ours, so this is a local copy; `tests/contracts` asserts equality.
 */
export const HOOK_SOURCES = [
  'claude',
  'codex',
  'gemini',
  'antigravity',
  'amp',
  'opencode',
  'mimo-code',
  'cursor',
  'pi',
  'omp',
  'droid',
  'command-code',
  'grok',
  'copilot',
  'hermes',
  'devin',
  'kimi',
  'crush',
] as const;

/** One source: the `<source>` of `POST /hook/<source>`. */
export type HookSource = (typeof HOOK_SOURCES)[number];

/** Agents this package compiles hooks for, in registry order. */
export const AGENT_IDS = [
  'claude',
  'openclaude',
  'codex',
  'gemini',
  'antigravity',
  'cursor',
  'droid',
  'devin',
  'grok',
  'copilot',
  'command-code',
] as const;

/** One agent id. */
export type AgentId = (typeof AGENT_IDS)[number];

/** Whether `value` names an agent of {@link AGENT_IDS}. */
export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}
