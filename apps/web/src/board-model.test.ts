import { describe, expect, it } from 'vitest';
import { applyChange, type BoardPane, sortPanes, statusLook, tabTitle, waitText } from './board-model.ts';

const pane = (handle: string, extra: Partial<BoardPane> = {}): BoardPane => ({
  handle,
  name: null,
  cwd: '/',
  guest: null,
  agent: 'claude',
  title: null,
  status: 'idle',
  isRunningAgent: true,
  ...extra,
});

describe('the board model', () => {
  it('puts panes waiting on a human first and counts them in the tab title', () => {
    const panes = [
      pane('a', { changedAt: 3 }),
      pane('b', { status: 'working', changedAt: 2 }),
      pane('c', { status: 'permission', changedAt: 1 }),
      pane('d', { exited: { code: 0, signal: null, cause: 'exit' } }),
      pane('e', { status: 'idle', agentWait: { source: 'hook', reason: 'agent-approval-prompt' }, changedAt: 0 }),
    ];
    expect(sortPanes(panes).map((p) => [p.handle, statusLook(p).word])).toEqual([
      ['c', 'waiting'],
      ['e', 'waiting'],
      ['b', 'working'],
      ['a', 'idle'],
      ['d', 'exited'],
    ]);
    expect(tabTitle(panes)).toBe('(2) waiting · orca');
    expect(tabTitle([pane('a')])).toBe('orca');
  });

  it('applies a verdict change keeping an absent agentWait absent', () => {
    const before = [pane('a', { agentWait: null }), pane('b')];
    const after = applyChange(before, { handle: 'a', at: 50, verdict: { status: 'working', isRunningAgent: true } });
    expect(after[0]).toEqual(pane('a', { status: 'working', changedAt: 50 }));
    expect('agentWait' in (after[0] as object)).toBe(false);
    expect(after[1]).toBe(before[1]);
  });

  it('says why and how long a pane has waited', () => {
    const waiting = pane('a', { status: 'permission', agentWait: { source: 'hook', since: 1_000 } });
    expect(waitText(waiting, 13_000)).toBe('via hook · 12 s');
    expect(waitText(pane('b', { status: 'permission', changedAt: 0 }), 300_000)).toBe('approval · 5 min');
    expect(waitText(pane('c'), 0)).toBe('');
  });
});
