import { HOOK_SOURCES, type HookSource, MANAGED_AGENTS } from '@orca/shared/agents';

/** Every hook source, in the canonical order, and one source: the shared agent catalogue's. */
export { HOOK_SOURCES, type HookSource };

/** Agents this package compiles hooks for, in registry order (the catalogue's managed agents). */
export const AGENT_IDS = MANAGED_AGENTS;

/** One agent id. */
export type AgentId = (typeof AGENT_IDS)[number];

/** Whether `value` names an agent of {@link AGENT_IDS}. */
export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}
