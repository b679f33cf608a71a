import fs from 'node:fs';
import path from 'node:path';
import type { DispatchReceipt } from '@orca/host';
import { afterEach, describe, expect, it } from 'vitest';
import { type LabRun, startLabRun } from '../src/harness/lab-run.ts';
import { byPrompt } from '../src/model/scenario.ts';
import { profileFor, screensFor } from '../src/scenarios/index.ts';
import { reachIdle } from '../src/scenarios/tour.ts';
import { TOUR_TIMEOUT_MS } from '../src/scenarios/tour-test.ts';

/** A 5 KB prompt whose every sentence differs (no client folds or trims it). */
function longPrompt(tag: string): string {
  const parts: string[] = [`${tag}: please read this brief.`];
  for (let i = 0; parts.join(' ').length < 5 * 1024; i++)
    parts.push(`Point ${i} asks for check ${(i * 53) % 97} in file f${i}.ts.`);
  return parts.join(' ');
}

interface Row {
  agent: string;
  version: string;
  size: 'short' | '5 KB';
  moment: 'booting' | 'idle';
  stages: string;
  submittedBy: string;
  submitKeys: number;
}
const table: Row[] = [];
const runs: LabRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.stop();
});

function stagesOf(r: DispatchReceipt, start: number): string {
  return r.stages.map((s) => `${s.stage} +${s.at - start} ms`).join(', ');
}

/** The prompt reached the model in exactly one request, as one user turn of the conversation. */
function deliveredOnce(run: LabRun, prompt: string): void {
  const needle = prompt.slice(0, 40);
  expect(run.server.countCarrying(needle)).toBe(1);
  const last = run.server.requests.filter((r) => r.role === 'main').at(-1);
  expect(last?.userTurns.filter((t) => t.includes(needle))).toHaveLength(1);
}

async function dispatchAndCheck(run: LabRun, prompt: string, size: Row['size'], moment: Row['moment']): Promise<void> {
  const start = Date.now();
  const receipt = await run.host.dispatchInject(run.handle, prompt, { timeoutMs: 60_000 });
  expect(receipt.stages.map((s) => s.stage)).toEqual(expect.arrayContaining(['ready', 'input_written', 'submitted']));
  // Proven by the prompt hook carrying this prompt's own text (5 KB pastes included).
  expect(receipt).toMatchObject({ submittedBy: 'hook', hookProof: 'text' });
  await run.server.waitFor(
    (r) => r.role === 'main' && (r.userTurns.at(-1) ?? '').includes(prompt.slice(0, 40)),
    30_000,
  );
  const screens = screensFor(run.profile.agent);
  await run.waitForScreen((t) => screens.idle({ text: t, title: run.view().title }), 60_000, 'the reply to end');
  await new Promise((r) => setTimeout(r, 1_500));
  deliveredOnce(run, prompt);
  table.push({
    agent: run.profile.agent,
    version: run.version,
    size,
    moment,
    stages: stagesOf(receipt, start),
    submittedBy: receipt.submittedBy,
    submitKeys: receipt.submitKeys,
  });
}

/** The builds whose dispatch is toured. */
const DISPATCH_BUILDS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'droid', 'copilot'];

describe.each(DISPATCH_BUILDS)('dispatch delivers exactly once: %s', (build) => {
  for (const order of [
    ['short', '5 KB'],
    ['5 KB', 'short'],
  ] as const) {
    it(
      `${order[0]} prompt while the TUI boots, then a ${order[1]} one at the idle prompt`,
      async () => {
        const tag = `${build}-${order[0].replace(' ', '')}-${Date.now().toString(36)}`;
        const prompts = order.map((size, i) => (size === 'short' ? `${tag}-${i} say ok` : longPrompt(`${tag}-${i}`)));
        const table0: Record<string, { kind: 'text'; text: string }[]> = {};
        for (const p of prompts) table0[p.slice(0, 40)] = [{ kind: 'text', text: 'ok, done' }];
        const run = await startLabRun({
          profile: profileFor(build),
          replies: () => byPrompt(table0),
          permissionPrompts: false,
        });
        runs.push(run);
        // the first prompt goes in at once: the TUI is still booting
        await dispatchAndCheck(run, prompts[0] ?? '', order[0], 'booting');
        await reachIdle(run, screensFor(run.profile.agent));
        await dispatchAndCheck(run, prompts[1] ?? '', order[1], 'idle');
      },
      TOUR_TIMEOUT_MS,
    );
  }
});

describe('dispatch results', () => {
  it('are kept for the closing table', () => {
    const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../captures');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'dispatch.json'), `${JSON.stringify(table, null, 2)}\n`);
    console.log(
      table
        .map((r) => `${r.agent} ${r.version}\t${r.size}\t${r.moment}\t${r.submittedBy}/${r.submitKeys}\t${r.stages}`)
        .join('\n'),
    );
    expect(table.length).toBeGreaterThan(0);
  });
});
