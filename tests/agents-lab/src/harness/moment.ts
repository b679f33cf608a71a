import type { PaneView } from '@orca/host';

/** What a verdict must say during a moment (the scenario's ground truth). */
export interface VerdictExpectation {
  readonly status: 'idle' | 'working' | 'permission' | null;
  readonly isRunningAgent: boolean;
  /** `absent` = not evaluated, `null` = evaluated with no wait, `object` = waiting. */
  readonly agentWait: 'absent' | 'null' | 'object';
  /** When waiting: the reason the screen gives, if the moment names one. */
  readonly reason?: string;
}

/** One judged sample of a moment. */
export interface Sample {
  readonly atMs: number;
  readonly status: PaneView['status'];
  readonly isRunningAgent: boolean;
  readonly agentWait: 'absent' | 'null' | Record<string, unknown>;
  readonly title: string | null;
  readonly ok: boolean;
}

/** The tri-state of a view's agentWait. */
export function waitOf(view: PaneView): Sample['agentWait'] {
  if (!('agentWait' in view)) return 'absent';
  const w = view.agentWait;
  return w === null || w === undefined ? 'null' : (w as unknown as Record<string, unknown>);
}

/** Does `view` say what `expected` says? */
export function verdictMatches(view: PaneView, expected: VerdictExpectation): boolean {
  if (view.status !== expected.status || view.isRunningAgent !== expected.isRunningAgent) return false;
  const wait = waitOf(view);
  if (expected.agentWait === 'absent' || expected.agentWait === 'null') return wait === expected.agentWait;
  if (typeof wait !== 'object') return false;
  return expected.reason === undefined || wait.reason === expected.reason;
}

/** Human form of a verdict for failure messages. */
export function describeVerdict(v: {
  status: unknown;
  isRunningAgent: boolean;
  agentWait: Sample['agentWait'];
}): string {
  const wait = typeof v.agentWait === 'object' ? JSON.stringify(v.agentWait) : v.agentWait;
  return `${String(v.status)} running=${v.isRunningAgent} agentWait=${wait}`;
}
