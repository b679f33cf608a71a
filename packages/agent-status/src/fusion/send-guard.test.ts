import { describe, expect, it } from 'vitest';
import { SEND_GUARD_RECHECK_INTERVAL_MS, SEND_GUARD_RECHECK_WINDOW_MS } from '../limits.ts';
import { evaluateSendGuard } from './send-guard.ts';

describe('evaluateSendGuard', () => {
  const waiting = { status: 'permission' as const, isRunningAgent: true, agentWait: { source: 'title' as const } };
  const idle = { status: 'idle' as const, isRunningAgent: true, agentWait: null };
  const none = { status: null, isRunningAgent: false };

  it('refuses a pane waiting on a human, per mode', () => {
    expect(evaluateSendGuard(waiting, { mode: 'guard', firstCheckAt: 0, now: 0 })).toEqual({
      ok: false,
      code: 'terminal_guard_permission',
    });
    expect(evaluateSendGuard(waiting, { mode: 'inject', firstCheckAt: 0, now: 0 })).toEqual({
      ok: false,
      code: 'agent_prompt_blocked',
    });
  });

  it('lets a running agent through', () => {
    expect(evaluateSendGuard(idle, { mode: 'inject', firstCheckAt: 0, now: 0 })).toEqual({ ok: true });
  });

  it('rechecks a pane with no agent until the window closes', () => {
    expect(evaluateSendGuard(none, { mode: 'guard', firstCheckAt: 1000, now: 1000 })).toEqual({
      retryAt: 1000 + SEND_GUARD_RECHECK_INTERVAL_MS,
    });
    expect(
      evaluateSendGuard(none, { mode: 'guard', firstCheckAt: 1000, now: 1000 + SEND_GUARD_RECHECK_WINDOW_MS - 1 }),
    ).toEqual({
      retryAt: 1000 + SEND_GUARD_RECHECK_WINDOW_MS - 1 + SEND_GUARD_RECHECK_INTERVAL_MS,
    });
    expect(
      evaluateSendGuard(none, { mode: 'guard', firstCheckAt: 1000, now: 1000 + SEND_GUARD_RECHECK_WINDOW_MS }),
    ).toEqual({
      ok: false,
      code: 'terminal_guard_no_agent',
    });
  });
});
