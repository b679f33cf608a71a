import { describe, expect, it } from 'vitest';
import type { DemoEvent } from '../src/demo/run-demo.ts';
import { runOrca } from './cli-process.ts';

describe('orca demo (the real CLI, real PTY, real generated hook scripts through real curl)', () => {
  it('prints each verdict change, refuses an injection at the approval menu with zero bytes, exits 0', async () => {
    const run = await runOrca(['--json', 'demo'], { timeoutMs: 150_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as DemoEvent);
    const statuses = events.flatMap((e) => (e.kind === 'verdict' ? [e.verdict.status] : []));
    // The pipeline's story, in order: idle agent, working, waiting for approval, working again, idle.
    const story = ['idle', 'working', 'permission', 'working', 'idle'];
    let at = 0;
    for (const status of statuses) if (status === story[at]) at += 1;
    expect(at).toBe(story.length);
    // The wait is told first by the agent's PermissionRequest hook, then proven by the menu on screen.
    const waits = events.flatMap((e) => (e.kind === 'verdict' && e.verdict.status === 'permission' ? [e.verdict] : []));
    expect(waits.length).toBeGreaterThan(0);
    for (const v of waits) {
      expect(v.isRunningAgent).toBe(true);
      expect(['hook', 'prompt-text']).toContain(v.agentWait?.source);
    }
    expect(events.filter((e) => e.kind === 'inject')).toEqual([
      { kind: 'inject', prompt: 'run the tests verbosely', ok: true, bytes: 36 }, // a bracketed paste + Enter
      { kind: 'inject', prompt: 'also update the docs', ok: false, code: 'agent_prompt_blocked', bytesWritten: 0 },
    ]);
    expect(events.at(-2)).toEqual({ kind: 'exit', code: 0, signal: null });
    expect(events.at(-1)).toMatchObject({ kind: 'done', ok: true, hookEvents: 6 });
  }, 180_000);
});
