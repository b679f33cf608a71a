import { evaluateFixture, type FixtureCase, pickExpected } from '@orca/agent-status/fixtures';
import type { MomentCapture } from './capture.ts';
import type { VerdictExpectation } from './moment.ts';

/** A captured moment as an `@orca/agent-status` fixture case, with the engine's answer as its expectation. */
export async function replayCapture(
  capture: MomentCapture,
  why: string,
): Promise<{ fixture: FixtureCase; actual: Record<string, unknown> }> {
  const base: FixtureCase = {
    why,
    evidence: { ...capture.evidence },
    tail: capture.tail,
    screen: capture.screen.join('\n').replace(/\n+$/, ''),
    expect: {},
  };
  const actual = await evaluateFixture(base);
  const expect = pickExpected(actual, { tuiIdle: true, guard: true });
  return { fixture: { ...base, expect }, actual };
}

/**
 * Problems with a replay: the verdict the library gives the captured evidence must be the
 * moment's ground truth, a dialog must block tui-idle and the guard, an idle prompt must pass the guard.
 */
export function replayProblems(actual: Record<string, unknown>, expected: VerdictExpectation): string[] {
  const problems: string[] = [];
  const wait = 'agentWait' in actual ? (actual.agentWait === null ? 'null' : 'object') : 'absent';
  const reason = (actual.agentWait as { reason?: string } | null | undefined)?.reason;
  if (
    actual.status !== expected.status ||
    actual.isRunningAgent !== expected.isRunningAgent ||
    wait !== expected.agentWait
  ) {
    problems.push(
      `replay: ${JSON.stringify({ status: actual.status, isRunningAgent: actual.isRunningAgent, agentWait: actual.agentWait })}`,
    );
  } else if (expected.reason !== undefined && reason !== expected.reason) {
    problems.push(`replay: reason ${String(reason)}, wanted ${expected.reason}`);
  }
  const guard = actual.guard as { ok?: boolean } | undefined;
  const tuiIdle = actual.tuiIdle as { state?: string } | undefined;
  if (expected.status === 'permission') {
    if (guard?.ok !== false) problems.push(`replay: guard ${JSON.stringify(guard)} at a dialog`);
    if (tuiIdle?.state !== 'blocked') problems.push(`replay: tui-idle ${JSON.stringify(tuiIdle)} at a dialog`);
  }
  if (expected.status === 'idle' && guard?.ok !== true)
    problems.push(`replay: guard ${JSON.stringify(guard)} at the idle prompt`);
  return problems;
}
