import { describe, expect, it } from 'vitest';
import { TUI_IDLE_POLL_INTERVAL_MS, TUI_IDLE_QUIESCENCE_MS } from '../limits.ts';
import type { PaneEvidence } from '../types.ts';
import type { ProbeGate } from './probe-gate.ts';
import { evaluateTuiIdle } from './tui-idle.ts';

const NOW = 100_000;
const base = (extra: Partial<PaneEvidence> = {}): PaneEvidence => ({
  now: NOW,
  ptyId: 'p',
  waitBlockedAt: null,
  ...extra,
});
const pending = { state: 'pending', recheckAt: NOW + TUI_IDLE_POLL_INTERVAL_MS };

function countingGate(cheap: string) {
  let runs = 0;
  const gate: ProbeGate = {
    run: async () => {
      runs++;
      return { cheap, confirmed: null };
    },
    inFlight: 0,
  };
  return { gate, runs: () => runs };
}
const probe = { read: async () => 'unused' };

describe('evaluateTuiIdle', () => {
  it('a raw signal blocks at once, even without a stamp', async () => {
    const tail = 'Do you trust this folder?\n  Press enter to continue\n';
    expect(await evaluateTuiIdle(base({ tail }), { lastOutputAt: 0 })).toEqual({
      state: 'blocked',
      blockedReason: 'agent-trust-workspace',
    });
  });

  it('a dismissed signal does not block', async () => {
    const tail = 'Do you trust this folder?\n  Press enter to continue\nCursor Agent\n → Add a follow-up\n';
    expect(await evaluateTuiIdle(base({ tail }), { lastOutputAt: 0 })).toEqual({ state: 'satisfied' });
  });

  it('a permission verdict never satisfies', async () => {
    const title = { text: 'codex waiting', live: true, at: 1 };
    expect(await evaluateTuiIdle(base({ title }), { lastOutputAt: 0 })).toEqual(pending);
  });

  it('a shell in front never satisfies, however quiet; the probe runs once', async () => {
    const g = countingGate('/bin/zsh');
    const title = { text: '✳ Claude Code', live: true, at: 1 };
    expect(await evaluateTuiIdle(base({ title, probe }), { lastOutputAt: 0, gate: g.gate })).toEqual(pending);
    expect(g.runs()).toBe(1);
  });

  it('codex composer needs quiet or an accepted prompt', async () => {
    const tail = '• done\n› Ask Codex to do anything\n';
    const quietAt = NOW - TUI_IDLE_QUIESCENCE_MS;
    expect(await evaluateTuiIdle(base({ tail }), { lastOutputAt: quietAt + 1 })).toEqual(pending);
    expect(await evaluateTuiIdle(base({ tail }), { lastOutputAt: quietAt })).toEqual({ state: 'satisfied' });
    expect(await evaluateTuiIdle(base({ tail }), { lastOutputAt: NOW, acceptedPromptThisGeneration: true })).toEqual({
      state: 'satisfied',
    });
  });

  it('silence alone never satisfies', async () => {
    expect(await evaluateTuiIdle(base({ tail: 'compiling\n' }), { lastOutputAt: 0 })).toEqual(pending);
    expect(await evaluateTuiIdle(base(), { lastOutputAt: null })).toEqual(pending);
  });

  it('a recognised foreground is weak evidence: quiet needed', async () => {
    const g = countingGate('codex');
    expect(await evaluateTuiIdle(base({ probe }), { lastOutputAt: NOW - 10, gate: g.gate })).toEqual(pending);
    expect(await evaluateTuiIdle(base({ probe }), { lastOutputAt: 0, gate: g.gate })).toEqual({ state: 'satisfied' });
  });
});
