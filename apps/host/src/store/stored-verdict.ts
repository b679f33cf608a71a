import type { AgentWait, PaneVerdict as Verdict } from '@orca/agent-status';
import { readTri, writeTri } from '@orca/wire/compat';
import type { StoredAgentWait } from './store.ts';

/** The store's encoding of the `agentWait` tri-state: key absent, `null`, or an object. */
export function storedWait(verdict: Verdict): StoredAgentWait {
  return readTri<Record<string, unknown>>(verdict, 'agentWait');
}

/** A stored verdict back in the engine's shape, the tri-state kept exactly. */
export function verdictFromStored(status: string | null, running: boolean, wait: StoredAgentWait): Verdict {
  const base = { status: status as Verdict['status'], isRunningAgent: running };
  return writeTri(base, 'agentWait', wait) as typeof base & { agentWait?: AgentWait | null };
}
