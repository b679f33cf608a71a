import { describe, expect, it } from 'vitest';
import { AgentStatusError } from '../errors.ts';
import type { PaneEvidence, StatusRow } from '../types.ts';
import { evaluatePane } from './evaluate-pane.ts';
import type { ProbeGate, ProbeReading } from './probe-gate.ts';

const CURSOR_MENU = 'Run this command?\n  → Run (once) (y)\n    Skip (esc or n)\n';
const TRUST = 'Do you trust the contents of this directory?\n  Press enter to continue\n';
const row = (state: StatusRow['state'], at: number, extra: Partial<StatusRow> = {}): StatusRow => ({
  state,
  receivedAt: at,
  stateStartedAt: at,
  source: 'claude',
  via: 'hook',
  ...extra,
});
const base = (extra: Partial<PaneEvidence> = {}): PaneEvidence => ({
  now: 10_000,
  ptyId: 'pty-1',
  waitBlockedAt: null,
  ...extra,
});

function spyGate(answer: ProbeReading | 'timeout' | Error) {
  const calls: [string, unknown][] = [];
  const gate: ProbeGate = {
    run: async (ptyId, probe) => {
      calls.push([ptyId, probe]);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    inFlight: 0,
  };
  return { gate, calls };
}
const probe = { read: async () => 'unused' };

describe('evaluatePane: contract violations throw AgentStatusError', () => {
  it.each([
    ['now', { now: Number.NaN }],
    ['now', { now: undefined as unknown as number }],
    ['waitBlockedAt', { waitBlockedAt: Number.POSITIVE_INFINITY }],
    ['waitBlockedAt', { waitBlockedAt: undefined as unknown as null }],
    ['ptyId', { ptyId: '' }],
  ])('%s', async (field, patch) => {
    const err = await evaluatePane(base(patch as Partial<PaneEvidence>)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentStatusError);
    expect(err).toMatchObject({ code: 'ORCA_STATUS_INVALID_EVIDENCE', field });
  });

  it('echoes a long value truncated to 200 chars', async () => {
    const err = (await evaluatePane(
      base({ ptyId: 5 as unknown as string, now: 'x'.repeat(500) as unknown as number }),
    ).catch((e: unknown) => e)) as AgentStatusError;
    expect(err.message.length).toBeLessThan(300);
    expect(err.message).toContain('evidence field now: expected a finite number');
  });

  it('agent data never throws: malformed rows are dropped, odd titles and tails fail to match', async () => {
    const rows = [
      { state: 'sleeping' },
      { ...row('working', 1), receivedAt: Number.NaN },
      null,
      'x',
    ] as unknown as StatusRow[];
    expect(
      await evaluatePane(
        base({
          rows,
          title: { text: '\u0000\uffff', live: true, at: Number.NaN },
          tail: ['\x1b[', 5 as unknown as string],
        }),
      ),
    ).toStrictEqual({ status: null, isRunningAgent: false, agentWait: null });
  });
});

describe('evaluatePane: foreground through the gate', () => {
  it('calls gate.run(ptyId, probe) at most once per evaluation', async () => {
    const spy = spyGate({ cheap: 'codex', confirmed: null });
    const e = base({ probe, title: { text: '◐ task', live: true, at: 1 } });
    expect(await evaluatePane(e, { gate: spy.gate })).toStrictEqual({
      status: 'working',
      isRunningAgent: true,
      agentWait: null,
    });
    expect(spy.calls).toEqual([['pty-1', probe]]);
  });

  it('never probes when no rule needs it', async () => {
    const spy = spyGate({ cheap: 'codex', confirmed: null });
    await evaluatePane(base({ probe, tail: CURSOR_MENU }), { gate: spy.gate });
    await evaluatePane(base({ probe, title: { text: '✳ Claude Code', live: true, at: 1 } }), { gate: spy.gate });
    await evaluatePane(base({ title: { text: '◐ x', live: true, at: 1 } }), { gate: spy.gate });
    expect(spy.calls).toEqual([]);
  });

  it.each([
    ['a timeout', 'timeout' as const],
    ['a rejecting gate', new Error('wedged')],
  ])('%s leaves a hook wait unevaluated (agentWait absent) and reads as not-a-shell', async (_label, answer) => {
    const spy = spyGate(answer);
    const v = await evaluatePane(base({ probe, rows: [row('waiting', 9000)] }), { gate: spy.gate });
    expect(v).toStrictEqual({ status: 'permission', isRunningAgent: true });
    expect(JSON.stringify(v)).toBe('{"status":"permission","isRunningAgent":true}');
  });

  it('a timeout with no permission row still evaluates agentWait to null', async () => {
    const spy = spyGate('timeout');
    expect(await evaluatePane(base({ probe, rows: [row('working', 9000)] }), { gate: spy.gate })).toStrictEqual({
      status: 'working',
      isRunningAgent: true,
      agentWait: null,
    });
  });

  it('wait:false leaves agentWait absent', async () => {
    expect(await evaluatePane(base({ tail: CURSOR_MENU }), { wait: false })).toStrictEqual({
      status: 'permission',
      isRunningAgent: true,
    });
  });
});

describe('evaluatePane: precedence between evidence sources', () => {
  const permTitle = { text: 'codex - action required', live: true, at: 5000 };
  const idleTitle = { text: '✳ Claude Code', live: true, at: 5000 };
  it.each<[string, Partial<PaneEvidence>, object]>([
    [
      'permission title beats a working row',
      { title: permTitle, rows: [row('working', 4000)] },
      { status: 'permission', agentWait: { source: 'title' } },
    ],
    [
      'a working row that started after the title beats it',
      { title: permTitle, rows: [row('working', 6000)] },
      { status: 'working', agentWait: null },
    ],
    [
      'permission title beats the screen signal for source',
      { title: permTitle, tail: CURSOR_MENU },
      { status: 'permission', agentWait: { source: 'prompt-text', reason: 'agent-approval-prompt' } },
    ],
    [
      'signal beats a working row',
      { tail: CURSOR_MENU, rows: [row('working', 4000)] },
      { status: 'permission', agentWait: { source: 'prompt-text', reason: 'agent-approval-prompt' } },
    ],
    [
      'row beats an older title',
      { title: { ...idleTitle, at: 3000 }, rows: [row('working', 4000)] },
      { status: 'working', agentWait: null },
    ],
    [
      'a live explicit title set after the row wins (Claude interrupted with Esc fires no hook)',
      { title: idleTitle, rows: [row('working', 4000)] },
      { status: 'idle', agentWait: null },
    ],
    [
      'a name-only title never overrides the row',
      { title: { text: 'Claude Code', live: true, at: 5000 }, rows: [row('working', 4000)] },
      { status: 'working', agentWait: null },
    ],
    ['title beats the foreground', { title: idleTitle, probe }, { status: 'idle', agentWait: null }],
    [
      'restored title is not a live title',
      { title: { ...permTitle, restored: true } },
      { status: null, agentWait: null },
    ],
    [
      'non-live permission title (its setter left the foreground) asks nothing and gives no status',
      { title: { ...permTitle, live: false } },
      { status: null, agentWait: null },
    ],
  ])('%s', async (_label, patch, expected) => {
    const v = await evaluatePane(base(patch), { gate: spyGate({ cheap: 'zsh', confirmed: null }).gate });
    expect({ status: v.status, agentWait: v.agentWait }).toEqual(expected);
  });
});

describe('evaluatePane: a title that is not live needs its agent in front', () => {
  const stale = { text: 'codex - action required', live: false, at: 5000 };
  it.each<[string, string, object]>([
    ["a shell in front: the exited agent's title holds nothing", 'zsh', { status: null, isRunningAgent: false }],
    [
      'its agent in front again: the title counts',
      'node /usr/lib/node_modules/@openai/codex/bin/codex.js',
      { status: 'permission', isRunningAgent: true },
    ],
  ])('%s', async (_label, cheap, expected) => {
    const v = await evaluatePane(base({ title: stale, probe }), { gate: spyGate({ cheap, confirmed: null }).gate });
    expect({ status: v.status, isRunningAgent: v.isRunningAgent }).toEqual(expected);
  });
});

describe('evaluatePane: blocked-text authority per reason kind', () => {
  // [label, tail, waitBlockedAt, extra evidence, holds?]
  const matrix: [string, string, number | null, Partial<PaneEvidence>, boolean][] = [
    ['approval, no stamp', CURSOR_MENU, null, {}, true],
    [
      'approval, title after the stamp',
      CURSOR_MENU,
      5000,
      { title: { text: '✳ Claude Code', live: true, at: 6000 } },
      true,
    ],
    ['approval, hook started before the stamp', CURSOR_MENU, 5000, { rows: [row('working', 4000)] }, true],
    ['approval, hook started after the stamp', CURSOR_MENU, 5000, { rows: [row('working', 6000)] }, false],
    ['approval, hook after a zero stamp', CURSOR_MENU, 0, { rows: [row('working', 6000)] }, true],
    ['modal, no stamp', TRUST, null, {}, false],
    ['modal, stamp only', TRUST, 5000, {}, true],
    ['modal, title before the stamp', TRUST, 5000, { title: { text: '✳ Claude Code', live: true, at: 4000 } }, true],
    ['modal, title after the stamp', TRUST, 5000, { title: { text: '✳ Claude Code', live: true, at: 6000 } }, false],
    ['modal, title with at null', TRUST, 5000, { title: { text: '✳ Claude Code', live: true, at: null } }, true],
    [
      'modal, permission title after the stamp',
      TRUST,
      5000,
      { title: { text: 'codex waiting', live: true, at: 6000 } },
      true,
    ],
    ['modal, hook before the stamp', TRUST, 5000, { rows: [row('working', 4000)] }, true],
    ['modal, hook after the stamp', TRUST, 5000, { rows: [row('working', 6000)] }, false],
    ['modal, permission hook and no stamp', TRUST, null, { rows: [row('waiting', 6000)] }, true],
    ['modal, stamp equal to the clearing hook', TRUST, 6000, { rows: [row('working', 6000)] }, true],
  ];
  it.each(matrix)('%s', async (_label, tail, waitBlockedAt, extra, holds) => {
    const v = await evaluatePane(base({ tail, waitBlockedAt, ...extra }));
    expect(v.agentWait?.source === 'prompt-text').toBe(holds);
  });
});

describe('evaluatePane: exited and running', () => {
  it('an exited pane is not running and leaves agentWait absent', async () => {
    expect(await evaluatePane(base({ exited: true, tail: CURSOR_MENU, rows: [row('waiting', 9000)] }))).toStrictEqual({
      status: null,
      isRunningAgent: false,
    });
  });

  it('recognises an agent under an interpreter; claude -p is not a TUI', async () => {
    const run = (cheap: string) => evaluatePane(base({ probe }), { gate: spyGate({ cheap, confirmed: null }).gate });
    expect((await run('node /opt/lib/node_modules/@anthropic-ai/claude-code/cli.js')).isRunningAgent).toBe(true);
    expect((await run('python3 -m hermes')).isRunningAgent).toBe(true);
    expect((await run('claude -p hello')).isRunningAgent).toBe(false);
    expect((await run('vim notes')).isRunningAgent).toBe(false);
  });
});
