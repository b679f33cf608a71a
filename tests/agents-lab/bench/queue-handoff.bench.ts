// Agent idle → next queued prompt submitted, on the real Claude Code, Codex and Gemini CLIs: each
// round dispatches a prompt whose reply streams for a while, queues the next one at once, and
// times from the host publishing the agent `idle` (its turn ended) to the queued prompt's proven
// submission (its receipt's `submitted` stage). The baseline, measured in the same run on the same
// agent, is a direct dispatch at the idle prompt: call → `submitted`.
import { reportBench } from '@orca/bench';
import type { Host } from '@orca/host';
import { type LabRun, startLabRun } from '../src/harness/lab-run.ts';
import { byPrompt, type Reply } from '../src/model/scenario.ts';
import { profileFor, screensFor } from '../src/scenarios/index.ts';
import { reachIdle } from '../src/scenarios/tour.ts';
import { storyText } from '../src/scenarios/tour-replies.ts';

const ROUNDS_PER_AGENT = Number(process.env.ORCA_LAB_BENCH_ROUNDS ?? 6);
const BUILDS = (process.env.ORCA_LAB_BENCH_BUILDS?.split(',') ?? ['claude', 'codex', 'gemini']) as readonly string[];
/** A queued prompt must be submitted this soon after the agent went idle, at the 99th percentile (ms). */
const HANDOFF_P99_BUDGET_MS = 2_500;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Resolves with the time (host clock) the pane's verdict next goes working → idle. */
function nextIdleAfterWork(host: Host, handle: string): Promise<number> {
  return new Promise((resolve) => {
    let worked = false;
    const off = host.onVerdict((c) => {
      if (c.handle !== handle) return;
      if (c.verdict.status === 'working') worked = true;
      else if (worked && c.verdict.status === 'idle') {
        off();
        resolve(c.at);
      }
    });
  });
}

async function untilIdleScreen(run: LabRun): Promise<void> {
  const screens = screensFor(run.profile.agent);
  await run.waitForScreen((t) => screens.idle({ text: t, title: run.view().title }), 90_000, 'the idle prompt');
  await new Promise((r) => setTimeout(r, 1_000));
}

/** One round: [idle → queued prompt submitted, direct dispatch at idle → submitted] (ms). */
async function round(run: LabRun, i: number): Promise<[number, number]> {
  const idle = nextIdleAfterWork(run.host, run.handle);
  await run.host.dispatchInject(run.handle, `busy round ${i}`, { timeoutMs: 60_000 });
  const item = run.host.queue.add(run.handle, `queued round ${i}`);
  const done = await run.host.queue.wait(item.id, 120_000);
  const idleAt = await idle;
  const submitted = done.receipt?.stages.find((s) => s.stage === 'submitted')?.at;
  if (done.state !== 'submitted' || submitted === undefined)
    throw new Error(`round ${i}: ${done.state} ${done.error?.code ?? ''}`);
  await untilIdleScreen(run);
  const start = Date.now();
  const direct = await run.host.dispatchInject(run.handle, `direct round ${i}`, { timeoutMs: 60_000 });
  const directAt = direct.stages.find((s) => s.stage === 'submitted')?.at ?? start;
  await untilIdleScreen(run);
  return [submitted - idleAt, directAt - start];
}

for (const build of BUILDS) {
  const profile = profileFor(build);
  const table: Record<string, Reply[]> = {};
  for (let i = 0; i < ROUNDS_PER_AGENT; i++) {
    table[`busy round ${i}`] = [{ kind: 'slow-text', text: storyText(6), seconds: 2 }];
    table[`queued round ${i}`] = [{ kind: 'text', text: `ok ${i}` }];
    table[`direct round ${i}`] = [{ kind: 'text', text: `fine ${i}` }];
  }
  const handoffs: number[] = [];
  const directs: number[] = [];
  let failed = 0;
  let version = '?';
  try {
    const run = await startLabRun({ profile, replies: () => byPrompt(table), permissionPrompts: false });
    version = run.version;
    try {
      await reachIdle(run, screensFor(profile.agent));
      for (let i = 0; i < ROUNDS_PER_AGENT; i++) {
        try {
          const [handoff, direct] = await round(run, i);
          handoffs.push(handoff);
          directs.push(direct);
        } catch (error) {
          // Why: a bench reports a failed sample; it does not die (issue 28).
          failed += 1;
          console.error(`${build} round ${i} failed: ${(error as Error).message}`);
        }
      }
    } finally {
      await run.stop();
    }
  } catch (error) {
    failed = ROUNDS_PER_AGENT;
    console.error(`${build}: the run failed: ${(error as Error).message}`);
  }
  const label = `${profile.agent} ${version}`;
  const baseline = percentile(directs, 50);
  reportBench({
    name: `${label}: idle → next queued prompt submitted p50 (${handoffs.length} rounds) vs direct dispatch p50`,
    ours: percentile(handoffs, 50),
    baseline,
    target: '-',
    unit: 'ms',
  });
  reportBench({
    name: `${label}: idle → next queued prompt submitted p99 vs ${HANDOFF_P99_BUDGET_MS} ms`,
    ours: handoffs.length > 0 ? percentile(handoffs, 99) : 999_999,
    baseline: HANDOFF_P99_BUDGET_MS,
    target: '<= 1',
    unit: 'ms',
  });
  reportBench({
    name: `${label}: queue rounds failed`,
    ours: failed,
    baseline: ROUNDS_PER_AGENT,
    target: '<= 0',
    unit: 'rounds',
  });
}
