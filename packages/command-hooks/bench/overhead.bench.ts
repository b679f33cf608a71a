// Overhead of `runner.run` on a no-op hook versus a bare `child_process.spawn('sh', ['-c', cmd])`
// with the same 4 KiB stdin, both awaiting close. Interleaved A/B, median of 200 each.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { compareInterleaved, reportBench } from '@orca/bench';
import { type CommandHook, createCommandHookRunner } from '../src/index.ts';

const command = `cat >/dev/null; echo '{}'`;
const hook: CommandHook = {
  id: 'orca:bench#/0',
  dialect: 'orca',
  event: 'beforeSubmitPrompt',
  wireEvent: 'beforeSubmitPrompt',
  command,
  cwd: os.tmpdir(),
  timeoutMs: 30_000,
  onFailure: 'open',
};
const runner = createCommandHookRunner({ hooks: [hook], record: () => {} });

// Size the prompt so the marshalled stdin is 4 KiB.
const probe = JSON.stringify({
  hook_event_name: 'beforeSubmitPrompt',
  conversation_id: '',
  generation_id: '',
  workspace_roots: [os.tmpdir()],
  model: {},
  prompt: '',
});
const prompt = 'p'.repeat(4096 - probe.length);
const stdin = JSON.stringify({
  hook_event_name: 'beforeSubmitPrompt',
  conversation_id: '',
  generation_id: '',
  workspace_roots: [os.tmpdir()],
  model: {},
  prompt,
});

/** The baseline keeps stdout too, as the runner does. */
function bare(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

const c = await compareInterleaved(() => runner.run(hook, { prompt }), bare, { samples: 200, warmup: 5 });
reportBench({ name: 'runner.run no-op hook (4 KiB stdin) vs bare spawn', ...c, target: '<= 1.2', unit: 'ns' });
