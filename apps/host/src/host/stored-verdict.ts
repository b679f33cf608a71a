import type { AgentWait, PaneVerdict } from '@orca/agent-status';
import type { StoredAgentWait } from '../store/store.ts';
import type { Verdict } from './live-pane.ts';

/** The store's encoding of the `agentWait` tri-state: key absent, `null`, or an object. */
export function storedWait(verdict: PaneVerdict): StoredAgentWait {
  if (!('agentWait' in verdict) || verdict.agentWait === undefined) return { kind: 'absent' };
  if (verdict.agentWait === null) return { kind: 'null' };
  return { kind: 'value', value: { ...verdict.agentWait } };
}

/** A stored verdict back in the engine's shape, the tri-state kept exactly. */
export function verdictFromStored(status: string | null, running: boolean, wait: StoredAgentWait): Verdict {
  const base = { status: status as Verdict['status'], isRunningAgent: running };
  if (wait.kind === 'absent') return base;
  if (wait.kind === 'null') return { ...base, agentWait: null };
  return { ...base, agentWait: wait.value as unknown as AgentWait };
}
