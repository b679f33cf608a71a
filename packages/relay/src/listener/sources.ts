/**
 * Every agent that posts hooks, in the canonical order shared with `@orca/hook-templates` and
 * `@orca/agent-status` (a contract test compares the lists).
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

/** One known hook source (the `<id>` of `/hook/<id>`). */
export type HookSource = (typeof HOOK_SOURCES)[number];

const SOURCE_SET: ReadonlySet<string> = new Set(HOOK_SOURCES);

/** Whether `value` is a known source (case-sensitive). */
export function isHookSource(value: unknown): value is HookSource {
  return typeof value === 'string' && SOURCE_SET.has(value);
}
