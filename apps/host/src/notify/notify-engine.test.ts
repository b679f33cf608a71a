import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LivePane, Verdict } from '../panes/live-pane.ts';
import { silentLogger } from '../runtime/logger.ts';
import type { NotifyConfig } from './notify-config.ts';
import type { NotifyDelivery } from './notify-delivery.ts';
import { createNotifyEngine } from './notify-engine.ts';
import type { NotifyEvent } from './notify-event.ts';
import type { Transition } from './transition-journal.ts';

const pane = { record: { handle: 'pane-1', name: 'api' }, status: { agent: () => 'claude' } } as unknown as LivePane;
const permission: Verdict = { status: 'permission', isRunningAgent: true, agentWait: { source: 'hook', since: 1 } };
const working: Verdict = { status: 'working', isRunningAgent: true, agentWait: null };
const idle: Verdict = { status: 'idle', isRunningAgent: true, agentWait: null };

function transition(
  at: number,
  from: Verdict | null,
  to: Verdict,
  screenShowsPrompt: boolean,
  agent: string | null = 'claude',
): Transition {
  return {
    handle: 'pane-1',
    at,
    from: from?.status ?? null,
    to: to.status,
    verdict: to,
    agent,
    explanation: {
      verdict: to,
      rule: screenShowsPrompt ? 'screen-prompt' : 'hook-row',
      authority: screenShowsPrompt ? 'screen' : 'hook',
      evidence: {},
      overrode: [],
      screenShowsPrompt,
    },
  };
}

function setup(config: NotifyConfig, again = { screenShowsPrompt: false, waiting: true }) {
  const sent: { sink: string; event: NotifyEvent }[] = [];
  const delivery: NotifyDelivery = {
    send: async (sink, _s, event) => {
      sent.push({ sink, event });
      return { sink, outcome: 'delivered', attempts: 1 };
    },
    stop: () => undefined,
  };
  const engine = createNotifyEngine({
    config: () => config,
    delivery,
    log: silentLogger(),
    now: () => Date.now(),
    explainAgain: async () => again,
  });
  return { engine, sent, kinds: () => sent.map((s) => `${s.sink}:${s.event.kind}`) };
}

const hook = { type: 'webhook', url: 'http://127.0.0.1:1/', format: 'json' } as const;

describe('the notification engine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('alerts once per wait, escalates an unanswered one, and resolves to every sink told', async () => {
    const { engine, sent, kinds } = setup({
      rules: [{ on: 'waiting', sinks: ['a'], escalate: { afterMinutes: 5, sinks: ['b'] } }],
      sinks: { a: hook, b: hook },
    });
    engine.onTransition(transition(1, idle, permission, true), pane);
    engine.onTransition(transition(2, permission, { ...permission, agentWait: { source: 'prompt-text' } }, true), pane);
    expect(kinds()).toEqual(['a:waiting']);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(kinds()).toEqual(['a:waiting', 'b:escalated']);
    engine.onTransition(transition(3, permission, working, false), pane);
    expect(kinds().slice(2).sort()).toEqual(['a:resolved', 'b:resolved']);
    expect(sent[2]?.event.resolves).toBe(sent[0]?.event.id);
    // A new wait is a new alert.
    engine.onTransition(transition(4, working, permission, true), pane);
    expect(kinds().at(-1)).toBe('a:waiting');
  });

  it("a hook's claim with no prompt on the screen alerts only if the screen shows it after the dialog's grace", async () => {
    const drawn = setup(
      { rules: [{ on: 'waiting', sinks: ['a'] }], sinks: { a: hook } },
      { screenShowsPrompt: true, waiting: true },
    );
    drawn.engine.onTransition(transition(1, working, permission, false), pane);
    expect(drawn.kinds()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(drawn.kinds()).toEqual(['a:waiting']);

    const auto = setup({ rules: [{ on: 'waiting', sinks: ['a'] }], sinks: { a: hook } });
    auto.engine.onTransition(transition(1, working, permission, false), pane);
    await vi.advanceTimersByTimeAsync(2_000);
    auto.engine.onTransition(transition(2, permission, working, false), pane);
    expect(auto.kinds()).toEqual([]);

    // A pane no agent's hooks named: the screen verdict alone alerts.
    const plain = setup({ rules: [{ on: 'waiting', sinks: ['a'] }], sinks: { a: hook } });
    plain.engine.onTransition(transition(1, null, permission, false, null), pane);
    expect(plain.kinds()).toEqual(['a:waiting']);
  });

  it('done follows a turn at least minTurnSeconds long; error an exit that failed', () => {
    const { engine, kinds } = setup({
      rules: [
        { on: 'done', sinks: ['a'], minTurnSeconds: 60 },
        { on: 'error', sinks: ['a'] },
      ],
      sinks: { a: hook },
    });
    engine.onTransition(transition(0, idle, working, false), pane);
    engine.onTransition(transition(30_000, working, idle, false), pane);
    expect(kinds()).toEqual([]);
    engine.onTransition(transition(40_000, idle, working, false), pane);
    engine.onTransition(transition(50_000, working, permission, true), pane);
    engine.onTransition(transition(90_000, permission, working, false), pane);
    engine.onTransition(transition(110_000, working, idle, false), pane);
    expect(kinds()).toEqual(['a:done']);
    const exited: Verdict = { status: null, isRunningAgent: false };
    engine.onTransition(
      { ...transition(120_000, idle, exited, false), exit: { code: 0, signal: null, cause: 'exit' } },
      pane,
    );
    expect(kinds()).toEqual(['a:done']);
    engine.onTransition(
      { ...transition(130_000, idle, exited, false), exit: { code: null, signal: 9, cause: 'keeper-died' } },
      pane,
    );
    expect(kinds()).toEqual(['a:done', 'a:error']);
  });
});
