// Records real agent sessions for the host's fleet bench (apps/host/bench/fleet): the real CLI
// against its model stand-in in a real host, its PTY output with the original timing, the hook
// events its hooks posted and the verdicts, in two segments the bench replays in a loop:
//   working  a prompt, a streamed answer, back at the prompt
//   waiting  a prompt, a shell approval menu a human answers after a pause, the tool runs, idle
//   pnpm --filter @orca/agents-lab record [claude|claude-2.1.197|codex|gemini] [--out FILE]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startLabRun } from '../harness/lab-run.ts';
import { startRecording } from '../harness/session-recorder.ts';
import { LAB_PANE_COLS, LAB_PANE_ROWS } from '../limits.ts';
import { byPrompt } from '../model/scenario.ts';
import { screenState } from '../scenarios/agent-screens.ts';
import { profileFor, screensFor } from '../scenarios/index.ts';
import { reachIdle } from '../scenarios/tour.ts';
import { storyText } from '../scenarios/tour-replies.ts';

const PROMPTS = { working: 'tell me a short story', waiting: 'run the build' } as const;
/** Words of each agent's shell approval menu written in one piece (seen in these recordings). */
const MENU_MARKERS: Readonly<Record<string, string>> = {
  claude: 'proceed?',
  codex: 'Would you like to run',
  gemini: 'Allow once',
};
/** How long the human looks at the approval menu before answering (ms). */
const HUMAN_PAUSE_MS = 5_000;
/** The screen must show the idle prompt this long to end a segment (ms). */
const IDLE_HOLD_MS = 1_500;
const TIMEOUT_MS = 60_000;
/** The hook event that ends a turn, per agent: a segment ends once it came and the prompt is back. */
const TURN_END: Readonly<Record<string, string>> = { claude: 'Stop', codex: 'Stop', gemini: 'AfterAgent' };

const build = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'claude';
const outFlag = process.argv.indexOf('--out');
const profile = profileFor(build);
const screens = screensFor(profile.agent);
const run = await startLabRun({
  profile,
  replies: () =>
    byPrompt({
      [PROMPTS.working]: [{ kind: 'slow-text', text: storyText(12), seconds: 4 }],
      [PROMPTS.waiting]: [
        {
          kind: 'tool',
          text: 'Building.',
          call: { tool: 'shell', command: 'sleep 2 && touch build-output.txt', description: 'Run the build' },
        },
        { kind: 'text', text: 'The build passed.' },
      ],
    }),
});

async function until(what: string, test: () => boolean, holdMs = 0): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  let since: number | null = null;
  for (;;) {
    await run.host.livePane(run.handle).screen.settled();
    if (test()) {
      since ??= Date.now();
      if (Date.now() - since >= holdMs) return;
    } else since = null;
    if (Date.now() > deadline) throw new Error(`${build}: no ${what} within ${TIMEOUT_MS} ms:\n${run.screenText()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  await reachIdle(run, screens);
  const recorder = startRecording(run);
  const turnEnd = TURN_END[profile.agent] ?? 'Stop';
  const turnsEnded = () => run.hookEvents().filter((e) => e === turnEnd).length;
  // Why: some screens look idle while the answer still streams (Gemini); the turn's end hook says it is over.
  const idleAfter = (ended: number) => () => turnsEnded() > ended && screens.idle(screenState(run));

  const working = { from: recorder.now(), to: 0 };
  const beforeWorking = turnsEnded();
  await run.host.dispatchInject(run.handle, PROMPTS.working);
  await until('working screen', () => screens.working(screenState(run)));
  await until('idle prompt after the answer', idleAfter(beforeWorking), IDLE_HOLD_MS);
  working.to = recorder.now();

  const waiting = { from: recorder.now(), to: 0 };
  const beforeWaiting = turnsEnded();
  await run.host.dispatchInject(run.handle, PROMPTS.waiting);
  await until('approval menu', () => screens.approval.shell.test(run.screenText()));
  await new Promise((r) => setTimeout(r, HUMAN_PAUSE_MS));
  run.press(screens.approveKeys);
  await until('idle prompt after the tool', idleAfter(beforeWaiting), IDLE_HOLD_MS);
  waiting.to = recorder.now();

  const recording = recorder.stop();
  // Why: the recordings live with the bench that replays them, in @orca/host (found by its name).
  const hostDir = path.dirname(createRequire(import.meta.url).resolve('@orca/host/package.json'));
  const out =
    outFlag > 0 && process.argv[outFlag + 1]
      ? path.resolve(process.argv[outFlag + 1] as string)
      : path.join(hostDir, 'bench', 'fleet', 'recordings', `${build}-${run.version}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify({
      agent: profile.agent,
      build,
      version: run.version,
      cols: LAB_PANE_COLS,
      rows: LAB_PANE_ROWS,
      prompts: PROMPTS,
      segments: { working, waiting },
      /** Words of the approval menu the agent writes in one piece (the bench times the menu by them). */
      menuMarker: MENU_MARKERS[profile.agent],
      ...recording,
    })}\n`,
  );
  console.log(
    `recorded ${build} ${run.version}: ${recording.output.length} writes, ${recording.hooks.length} hook events ` +
      `(${[...new Set(recording.hooks.map((h) => h.event))].join(', ')}), ${recording.verdicts.length} verdicts -> ${out}`,
  );
} finally {
  await run.stop();
}
