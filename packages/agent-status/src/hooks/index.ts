export { DIALECTS, type Dialect, type DialectMemory, type HookMeaning } from './dialects.ts';
export { IGNORED_HOOK_EVENTS } from './ignored-events.ts';
export { createHookNormalizer, HOOK_SOURCES, type HookInput, type HookNormalizer } from './normalizer.ts';
export { appendStableRow, freezeStatusRow, parseStatusRow, statusRowSchema, validRows } from './row-schema.ts';
