// The moment sampler against a scripted screen (no agent): a frame read half drawn is not the
// moment ending, a marker that is really gone ends it.
import { describe, expect, it } from 'vitest';
import type { LabRun } from '../src/harness/lab-run.ts';
import { runMoment } from '../src/harness/scenario-runner.ts';
import { MARKER_GONE_CONFIRM_MS } from '../src/limits.ts';

const WORKING = { status: 'working', isRunningAgent: true, agentWait: 'null' } as const;

/** A run whose screen shows the marker except where `off(msSinceStart)` says. */
function scriptedRun(off: (ms: number) => boolean): LabRun {
  const started = Date.now();
  const screenText = (): string => (off(Date.now() - started) ? 'redrawing' : 'esc to cancel');
  const run = {
    screenText,
    async waitForScreen(test: (text: string) => boolean) {
      while (!test(screenText())) await new Promise((r) => setTimeout(r, 20));
    },
    view: () => ({ status: 'working', isRunningAgent: true, agentWait: null }),
    // An exited pane: nothing to capture.
    host: { livePane: () => ({ exit: { code: 0, signal: null } }) },
  };
  return run as unknown as LabRun;
}

describe('runMoment', () => {
  it('a marker off the screen for one poll is a half-drawn frame: sampling goes on to the hold', async () => {
    const run = scriptedRun((ms) => ms >= 350 && ms < 350 + MARKER_GONE_CONFIRM_MS / 2);
    const result = await runMoment(run, { name: 'working', marker: /esc to cancel/, expect: WORKING, holdMs: 1_600 });
    expect(result.problems).toEqual([]);
    expect(result.judged).toBeGreaterThan(0);
    expect(result.samples.at(-1)?.atMs).toBeGreaterThanOrEqual(1_600);
    expect(result.wrong).toEqual([]);
  });

  it('a marker gone for good ends the moment early, and says so', async () => {
    const run = scriptedRun((ms) => ms >= 200);
    const result = await runMoment(run, { name: 'working', marker: /esc to cancel/, expect: WORKING, holdMs: 1_600 });
    expect(result.problems.some((p) => p.startsWith('left the screen after'))).toBe(true);
    expect(result.problems).toContain('no sample was judged (the moment was too short)');
    // It waited for the marker to stay gone, not longer than the hold.
    expect(result.samples.at(-1)?.atMs ?? 0).toBeLessThan(1_000);
  });
});
