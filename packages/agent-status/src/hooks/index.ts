export { AGENT_HOOKS, type AgentHooks, DIALECTS, IGNORED_HOOK_EVENTS } from './agent-hooks.ts';
export type { Dialect, DialectMemory, HookMeaning } from './dialects.ts';
export { createHookNormalizer, HOOK_SOURCES, type HookInput, type HookNormalizer } from './normalizer.ts';
export { appendStableRow, freezeStatusRow, parseStatusRow, statusRowSchema, validRows } from './row-schema.ts';
