import { describe, expect, it } from 'vitest';
import { createPaneStatus } from './pane-status.ts';
import type { PaneScreen } from './screen.ts';

/** A screen that shows a shell prompt line and never lags: enough for the status tracker. */
function quietScreen(): PaneScreen {
  return {
    write: () => undefined,
    title: () => null,
    onTitle: () => undefined,
    renderedRows: () => ['$ '],
    tail: () => '$ ',
    caughtUp: () => true,
    settled: async () => undefined,
  } as unknown as PaneScreen;
}

describe('pane status: explaining an analysis', () => {
  it('explains the analysis a verdict came from, not the evidence as it is now, and reads no probe again', async () => {
    let now = 1_000;
    let probeReads = 0;
    const status = createPaneStatus({
      ptyId: 'p#1',
      screen: quietScreen(),
      now: () => now,
      exited: () => false,
      readForeground: async () => {
        probeReads += 1;
        return 'claude';
      },
      onEvidence: () => undefined,
    });
    status.addHookEvent({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: now });
    const working = await status.analyse();
    expect(working.verdict.status).toBe('working');
    const readsAfterAnalysis = probeReads;
    // Why: the shell prompt on the screen makes the engine ask what is in front; its answer is kept.
    expect(working.probeAnswers()).toEqual({ read: 'claude' });
    expect(readsAfterAnalysis).toBe(1);

    now += 500;
    status.addHookEvent({ source: 'claude', payload: { hook_event_name: 'Stop' }, receivedAt: now });

    const then = await status.explain(working);
    expect(then.explanation.verdict).toEqual(working.verdict);
    expect(then.explanation.rule).toBe(working.rule);
    expect(then.recorded.now).toBe(1_000);
    expect(probeReads).toBe(readsAfterAnalysis);
    expect(then.recorded.probeAnswers).toEqual({ read: 'claude' });

    // Without an analysis: the evidence now (the Stop row).
    const current = await status.explain();
    expect(current.explanation.verdict.status).toBe('idle');
  });
});
