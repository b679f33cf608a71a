import { describe, expect, it } from 'vitest';
import { splitArgv } from './argv.ts';
import type { BoardPane } from './board-model.ts';
import { newlyWaiting } from './notify.ts';

const pane = (handle: string, status: BoardPane['status']): BoardPane => ({
  handle,
  name: null,
  cwd: '/',
  guest: null,
  agent: 'claude',
  title: null,
  status,
  isRunningAgent: true,
});

describe('notifications and the create form', () => {
  it('notifies only for panes that start waiting', () => {
    const before = [pane('a', 'idle'), pane('b', 'permission')];
    const after = [pane('a', 'permission'), pane('b', 'permission'), pane('c', 'permission'), pane('d', 'idle')];
    expect(newlyWaiting(before, after).map((p) => p.handle)).toEqual(['a', 'c']);
  });

  it('splits an argv line, keeping quoted spaces', () => {
    expect(splitArgv(`node -e "console.log('a b')" 'x y'  z`)).toEqual([
      'node',
      '-e',
      "console.log('a b')",
      'x y',
      'z',
    ]);
    expect(splitArgv('   ')).toEqual([]);
  });
});
