/**
 * The agent catalogue every package shares: which agents post hooks (and in which canonical
 * order), which of them Orca installs status hooks for, and the file stems those hooks use. One
 * list, inlined into each package at build; the per-agent behaviour lives in each package's own
 * descriptor (hook-templates' registry, agent-status' dialects).
 */

/** Every agent that posts hooks, in the canonical order: the `<source>` of `POST /hook/<source>`. */
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

/** One hook source. */
export type HookSource = (typeof HOOK_SOURCES)[number];

/** The agents whose status hooks Orca installs (`@orca/hook-templates`), in registry order. */
export const MANAGED_AGENTS = [
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

/** One managed agent. */
export type ManagedAgentId = (typeof MANAGED_AGENTS)[number];

/**
 * Antigravity's config names one script per event: its vendor event names and their wrapper
 * stems (`~/.orca/agent-hooks/<stem>.<ext>`).
 */
export const ANTIGRAVITY_WRAPPERS = {
  PreInvocation: 'antigravity-pre-invocation',
  PostInvocation: 'antigravity-post-invocation',
  Stop: 'antigravity-stop',
  PreToolUse: 'antigravity-pre-tool-use',
  PostToolUse: 'antigravity-post-tool-use',
} as const;

/** Every managed file stem: `<agent>-hook`, `<agent>-hook-impl`, and the per-event wrappers. */
export const MANAGED_STEMS: readonly string[] = [
  ...MANAGED_AGENTS.flatMap((a) => [`${a}-hook`, `${a}-hook-impl`]),
  ...Object.values(ANTIGRAVITY_WRAPPERS),
];
