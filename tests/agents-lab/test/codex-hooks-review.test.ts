import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTourFixtures } from '../src/harness/fixture-writer.ts';
import { type LabRun, startLabRun } from '../src/harness/lab-run.ts';
import { replayCapture, replayProblems } from '../src/harness/replay.ts';
import { momentFailures, runMoment } from '../src/harness/scenario-runner.ts';
import { selectOption } from '../src/harness/select-option.ts';
import { byPrompt } from '../src/model/scenario.ts';
import { profileFor } from '../src/scenarios/index.ts';
import { TOUR_TIMEOUT_MS } from '../src/scenarios/tour-test.ts';

let run: LabRun | undefined;
afterAll(() => run?.stop());

describe('agents lab: codex hooks that are not trusted', () => {
  it(
    "shows Codex's own review modal: a wait, tui-idle blocked, a refused dispatch answers nothing",
    async () => {
      run = await startLabRun({
        profile: profileFor('codex'),
        replies: () => byPrompt({}),
        // Why: an install from before trust was granted (or one a user edited): no trusted_hash entries.
        beforeStart: (ctx) => {
          const file = path.join(ctx.home, '.codex', 'config.toml');
          const text = fs.readFileSync(file, 'utf8').replace(/\[hooks\.state\.[^\n]*\]\ntrusted_hash = "[^"]*"\n/g, '');
          fs.writeFileSync(file, text);
        },
      });
      const spec = {
        name: 'startup-hooks-review',
        marker: /Hooks need review/,
        expect: {
          status: 'permission',
          isRunningAgent: true,
          agentWait: 'object',
          reason: 'codex-hooks-review-prompt',
        } as const,
        tuiIdle: 'blocked' as const,
        dispatchRefused: true,
        leave: (r: LabRun) => selectOption(r, /Continue without trusting/),
      };
      const result = await runMoment(run, spec);
      const failures = momentFailures(result, spec.expect);
      const why = `Hooks need review (untrusted hooks): only a human may trust them. Real codex ${run.version} screen from the agents lab.`;
      const replay = result.capture ? await replayCapture(result.capture, why) : null;
      if (replay) failures.push(...replayProblems(replay.actual, spec.expect));
      expect(failures).toEqual([]);
      expect(result.judged).toBeGreaterThan(0);
      if (process.env.ORCA_LAB_WRITE_FIXTURES === '1' && replay) {
        writeTourFixtures({
          build: 'codex',
          agent: 'codex',
          version: run.version,
          installedVersion: run.version,
          hookEvents: [],
          moments: [
            {
              name: spec.name,
              ok: true,
              judged: result.judged,
              detectMs: result.detectMs,
              failures: [],
              capture: result.capture,
              fixture: replay.fixture,
            },
          ],
        });
      }
    },
    TOUR_TIMEOUT_MS,
  );
});
