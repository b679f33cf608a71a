import { describe, expect, it } from 'vitest';
import { splitArgv } from './argv.ts';
import { applyNotifyEvent, type NotifyEvent } from './notify.ts';

const event = (id: string, kind: NotifyEvent['kind'], extra: Partial<NotifyEvent> = {}): NotifyEvent => ({
  id,
  kind,
  at: 0,
  handle: 'pane-1',
  name: 'api',
  agent: 'claude',
  reason: 'permission',
  text: `${kind} ${id}`,
  title: kind,
  ...extra,
});

describe('the needs-you banner and the create form', () => {
  it('adds a line per wait, marks it resolved when answered, and keeps only the newest resolved lines', () => {
    let lines = applyNotifyEvent([], event('w1', 'waiting'));
    lines = applyNotifyEvent(lines, event('w2', 'waiting'));
    lines = applyNotifyEvent(lines, event('e1', 'escalated', { resolves: 'w1', text: 'still waiting' }));
    expect(lines.map((l) => [l.id, l.state, l.text])).toEqual([
      ['w1', 'open', 'still waiting'],
      ['w2', 'open', 'waiting w2'],
    ]);
    lines = applyNotifyEvent(lines, event('r1', 'resolved', { resolves: 'w1' }));
    expect(lines.map((l) => [l.id, l.state])).toEqual([
      ['w1', 'resolved'],
      ['w2', 'open'],
    ]);
    for (const n of [3, 4, 5, 6]) {
      lines = applyNotifyEvent(lines, event(`w${n}`, 'waiting'));
      lines = applyNotifyEvent(lines, event(`r${n}`, 'resolved', { resolves: `w${n}` }));
    }
    expect(lines.filter((l) => l.state === 'resolved').map((l) => l.id)).toEqual(['w4', 'w5', 'w6']);
    expect(lines.filter((l) => l.state === 'open').map((l) => l.id)).toEqual(['w2']);
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
