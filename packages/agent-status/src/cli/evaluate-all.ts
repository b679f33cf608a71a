import { evaluatePane } from '../fusion/evaluate-pane.ts';
import { createProbeGate } from '../fusion/probe-gate.ts';
import { evaluateSendGuard, type SendGuardResult, screenMenuShape } from '../fusion/send-guard.ts';
import { evaluateTuiIdle, type TuiIdleResult } from '../fusion/tui-idle.ts';
import { PROBE_TIMEOUT_MS, SEND_GUARD_RECHECK_WINDOW_MS } from '../limits.ts';
import type { PaneEvidence, PaneVerdict } from '../types.ts';

/** Verdict, tui-idle and the inject-mode guard of one evidence (recheck window taken as elapsed). */
export interface FullAnswer {
  verdict: PaneVerdict;
  tuiIdle: TuiIdleResult;
  guard: SendGuardResult;
}

/**
 * What `orca-status classify --all` and the fixture corpus compute for one evidence: the
 * verdict, tui-idle and the guard (with the screen's menu shape, failing closed).
 */
export async function evaluateAll(
  e: PaneEvidence,
  context: { lastOutputAt?: number | undefined; acceptedPrompt?: boolean | undefined },
): Promise<FullAnswer> {
  const gate = createProbeGate({ timeoutMs: PROBE_TIMEOUT_MS });
  const verdict = await evaluatePane(e, { gate });
  const tuiIdle = await evaluateTuiIdle(e, {
    lastOutputAt: context.lastOutputAt ?? null,
    acceptedPromptThisGeneration: context.acceptedPrompt === true,
    gate,
  });
  const guard = evaluateSendGuard(verdict, {
    mode: 'inject',
    firstCheckAt: e.now - SEND_GUARD_RECHECK_WINDOW_MS,
    now: e.now,
    menu: screenMenuShape(e),
  });
  return { verdict, tuiIdle, guard };
}
