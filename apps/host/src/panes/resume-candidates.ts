import { resumePlan } from '@orca/hook-templates/agents';
import type { ResumeCandidateView as ResumeCandidate } from '@orca/wire/contract';
import type { PaneRecord, Store } from '../store/store.ts';

/** Exit causes after which a pane's session is offered for a resume: it ended with its keeper or host, not by itself. */
export const RESUMABLE_CAUSES: readonly string[] = ['keeper-gone', 'keeper-died', 'host-restart'];

/** A pane whose agent session can be (or cannot be, and why) started again: the contract's `resume.list` row. */
export type { ResumeCandidateView as ResumeCandidate } from '@orca/wire/contract';

/** The plan of one stored pane, or null when it is not a candidate (running, exited by itself, resumed). */
export function candidateOf(record: PaneRecord): ResumeCandidate | null {
  if (record.exitedAt === null || record.resumedAs || !RESUMABLE_CAUSES.includes(record.exitCause ?? '')) return null;
  return {
    handle: record.handle,
    name: record.name,
    cwd: record.cwd,
    agent: record.agent,
    sessionId: record.sessionId ?? null,
    cause: record.exitCause ?? 'exit',
    exitedAt: record.exitedAt,
    plan: resumePlan(record.agent, record.argv, record.sessionId ?? null),
  };
}

/** Every pane that ended with its keeper or host and has not been resumed, oldest first. */
export function listResumable(store: Pick<Store, 'listPanes'>): ResumeCandidate[] {
  return store.listPanes().flatMap((r) => {
    const c = candidateOf(r);
    return c ? [c] : [];
  });
}
