// The agents the status engine tells apart (vocabulary, not limits).

/**
 * Every agent id the status engine knows, in the relay's `HOOK_SOURCES` order. Not the same set as
 * `@orca/hook-templates`' `STATUS_AGENT_IDS` (the agents it writes hook scripts for).
 */
export const STATUS_AGENT_IDS = [
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
/** One agent id. */
export type AgentId = (typeof STATUS_AGENT_IDS)[number];

/** Is `x` a known agent id? */
export function isAgentId(x: unknown): x is AgentId {
  return typeof x === 'string' && (STATUS_AGENT_IDS as readonly string[]).includes(x);
}
