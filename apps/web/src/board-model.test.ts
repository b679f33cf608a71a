import { describe, expect, it } from 'vitest';
import {
  applyChange,
  type BoardPane,
  exitText,
  filterPanes,
  nextWaiting,
  sortPanes,
  statusLook,
  stepSelection,
  tabTitle,
  waitText,
} from './board-model.ts';

const pane = (handle: string, extra: Partial<BoardPane> = {}): BoardPane => ({
  handle,
  name: null,
  paneKey: `key-${handle}`,
  cwd: '/',
  guest: null,
  command: 'claude',
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

describe('the board for daily use', () => {
  it('shows a plain shell as shell and another program as running, not unknown', () => {
    const plain = { agent: null, isRunningAgent: false, status: null } as const;
    expect(statusLook(pane('s', { ...plain, command: 'bash' })).word).toBe('shell');
    expect(statusLook(pane('t', { ...plain, command: 'top' })).word).toBe('running');
    expect(statusLook(pane('i', { ...plain, command: 'bash', status: 'idle' })).word).toBe('shell');
    // An agent pane not evaluated yet stays unknown.
    expect(statusLook(pane('a', { status: null, isRunningAgent: false })).word).toBe('unknown');
  });

  it('says how an exited pane ended', () => {
    expect(exitText(pane('a', { exited: { code: 127, signal: null, cause: 'exit' } }))).toBe('exit 127');
    expect(exitText(pane('b', { exited: { code: null, signal: 9, cause: 'keeper-died' } }))).toBe(
      'signal 9 · keeper-died',
    );
    expect(exitText(pane('c'))).toBe('');
  });

  it('filters on any shown field, and steps the selection and the next waiting pane', () => {
    const panes = [
      pane('a', { name: 'api', cwd: '/srv/api' }),
      pane('b', { name: 'web', status: 'permission', changedAt: 2 }),
      pane('c', { name: 'docs', agentWait: { source: 'hook', reason: 'question' }, changedAt: 1 }),
    ];
    expect(filterPanes(panes, 'SRV').map((p) => p.handle)).toEqual(['a']);
    expect(filterPanes(panes, 'waiting').map((p) => p.handle)).toEqual(['b', 'c']);
    expect(filterPanes(panes, ' ').map((p) => p.handle)).toEqual(['a', 'b', 'c']);
    expect(stepSelection(['a', 'b', 'c'], null, 1)).toBe('a');
    expect(stepSelection(['a', 'b', 'c'], 'c', 1)).toBe('c');
    expect(stepSelection(['a', 'b', 'c'], 'b', -1)).toBe('a');
    expect(stepSelection([], 'b', -1)).toBeNull();
    expect(nextWaiting(panes, null)).toBe('b');
    expect(nextWaiting(panes, 'b')).toBe('c');
    expect(nextWaiting(panes, 'c')).toBe('b');
    expect(nextWaiting([pane('a')], null)).toBeNull();
  });
});
