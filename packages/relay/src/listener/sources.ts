import { HOOK_SOURCES, type HookSource } from '@orca/shared/agents';

/** Every agent that posts hooks, in the canonical order (the shared agent catalogue, `@orca/shared/agents`). */
export { HOOK_SOURCES, type HookSource };

const SOURCE_SET: ReadonlySet<string> = new Set(HOOK_SOURCES);

/** Whether `value` is a known source (case-sensitive). */
export function isHookSource(value: unknown): value is HookSource {
  return typeof value === 'string' && SOURCE_SET.has(value);
}
