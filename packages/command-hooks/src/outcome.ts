import { MAX_INJECT_CONTEXT_CHARS } from './limits.ts';

/** A permission decision. */
export type PermissionDecision = 'allow' | 'deny' | 'ask';

/** Outcome of a hook on a blocking event. */
export interface BlockingOutcome {
  decision?: PermissionDecision;
  haltRun?: { reason: string };
  /** toolGate only: replacement input keys, canonical spelling. */
  updatedInput?: Record<string, unknown>;
  injectContext?: string;
  agentMessage?: string;
  userMessage?: string;
}

/** Outcome of a detached hook: never a decision, updatedInput or injectContext (by type). */
export interface AsyncOutcome {
  haltRun?: { reason: string };
  queueMessage?: { text: string; sendNow: boolean };
  userMessage?: string;
  sessionEnv?: Record<string, string>;
}

/** What one `run` produced. `failureMode` is set when `failed`. */
export interface HookRunResult {
  outcome: BlockingOutcome | AsyncOutcome | null;
  failed: boolean;
  failureMode?: 'open' | 'closed';
}

/** `emit`'s merged result: the merged blocking outcome plus run counts. */
export type MergedOutcome = BlockingOutcome & { runs: number; failedRuns: number };

const DECISION_RANK = { allow: 1, ask: 2, deny: 3 } as const;

function joinOptional(a: string | undefined, b: string | undefined, sep: string): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return `${a}${sep}${b}`;
}

/** Cut merged context to `MAX_INJECT_CONTEXT_CHARS`, the note counted in the cap. */
export function capInjectContext(text: string): string {
  if (text.length <= MAX_INJECT_CONTEXT_CHARS) return text;
  // Why: the note's own length depends on N; iterate once more if the digit count shifts.
  let keep = MAX_INJECT_CONTEXT_CHARS;
  for (let i = 0; i < 3; i++) {
    const note = `…[hook context truncated, ${text.length - keep} chars omitted]`;
    const next = MAX_INJECT_CONTEXT_CHARS - note.length;
    if (next === keep) break;
    keep = next;
  }
  return `${text.slice(0, keep)}…[hook context truncated, ${text.length - keep} chars omitted]`;
}

/**
 * Merge blocking outcomes in run order: deny > ask > allow; the first haltRun wins;
 * updatedInput shallow-merged key by key; messages joined with `\n`, injectContext with
 * `\n\n` and capped at `MAX_INJECT_CONTEXT_CHARS`.
 *
 * @example
 * mergeOutcomes([{ decision: 'allow' }, { decision: 'deny', agentMessage: 'no' }]);
 * // → { decision: 'deny', agentMessage: 'no' }
 */
export function mergeOutcomes(outcomes: readonly (BlockingOutcome | null)[]): BlockingOutcome {
  const merged: BlockingOutcome = {};
  for (const o of outcomes) {
    if (o === null) continue;
    if (o.decision !== undefined) {
      if (merged.decision === undefined || DECISION_RANK[o.decision] > DECISION_RANK[merged.decision]) {
        merged.decision = o.decision;
      }
    }
    if (o.haltRun !== undefined && merged.haltRun === undefined) merged.haltRun = { ...o.haltRun };
    if (o.updatedInput !== undefined) merged.updatedInput = { ...merged.updatedInput, ...o.updatedInput };
    const ctx = joinOptional(merged.injectContext, o.injectContext, '\n\n');
    if (ctx !== undefined) merged.injectContext = ctx;
    const agent = joinOptional(merged.agentMessage, o.agentMessage, '\n');
    if (agent !== undefined) merged.agentMessage = agent;
    const user = joinOptional(merged.userMessage, o.userMessage, '\n');
    if (user !== undefined) merged.userMessage = user;
  }
  if (merged.injectContext !== undefined) merged.injectContext = capInjectContext(merged.injectContext);
  return merged;
}
