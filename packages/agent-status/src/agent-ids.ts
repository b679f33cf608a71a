// The agents the status engine tells apart (vocabulary, not limits).
import { HOOK_SOURCES } from '@orca/shared/agents';

/**
 * Every agent id the status engine knows: the shared catalogue's hook sources, in their order.
 * Not the same set as `@orca/hook-templates`' `AGENT_IDS` (the agents it writes hook scripts for).
 */
export const STATUS_AGENT_IDS = HOOK_SOURCES;
/** One agent id. */
export type AgentId = (typeof STATUS_AGENT_IDS)[number];

/** Is `x` a known agent id? */
export function isAgentId(x: unknown): x is AgentId {
  return typeof x === 'string' && (STATUS_AGENT_IDS as readonly string[]).includes(x);
}
