import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.ts';
import { openStore } from './store.ts';

function tempStorePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'orca-store-')), 'orca.sqlite');
}

const pane = {
  handle: 'p1',
  paneKey: 'tab1:1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  tabId: 'tab1',
  name: 'demo',
  cwd: '/tmp',
  argv: ['sh', '-c', 'true'],
  guest: null,
  agent: null,
  createdAt: 10,
};

describe('store', () => {
  it('runs every numbered migration once and reopens at the same version', () => {
    const path = tempStorePath();
    const store = openStore(path);
    const last = MIGRATIONS[MIGRATIONS.length - 1]?.version;
    expect(store.schemaVersion()).toBe(last);
    store.close();
    const again = openStore(path);
    expect(again.schemaVersion()).toBe(last);
    again.close();
  });

  it('keeps hook rows and all three agentWait states across a reopen', () => {
    const path = tempStorePath();
    const store = openStore(path);
    store.insertPane(pane);
    store.insertHookRow({
      paneKey: pane.paneKey,
      connectionId: 'local',
      source: 'claude',
      hookEventName: 'Stop',
      receivedAt: 5,
      envelope: { source: 'claude', payload: { hook_event_name: 'Stop' } },
      row: { state: 'done' },
    });
    store.insertVerdict({ handle: 'p1', at: 1, status: null, isRunningAgent: false, agentWait: { kind: 'absent' } });
    store.insertVerdict({ handle: 'p1', at: 2, status: 'idle', isRunningAgent: true, agentWait: { kind: 'null' } });
    const wait = { kind: 'value', value: { source: 'hook', since: 3 } } as const;
    store.insertVerdict({ handle: 'p1', at: 3, status: 'permission', isRunningAgent: true, agentWait: wait });
    store.close();

    const reopened = openStore(path);
    expect(reopened.hookRows(pane.paneKey)).toEqual([
      {
        id: 1,
        paneKey: pane.paneKey,
        connectionId: 'local',
        source: 'claude',
        hookEventName: 'Stop',
        receivedAt: 5,
        envelope: { source: 'claude', payload: { hook_event_name: 'Stop' } },
        row: { state: 'done' },
      },
    ]);
    expect(reopened.verdicts('p1').map((v) => v.agentWait)).toEqual([{ kind: 'absent' }, { kind: 'null' }, wait]);
    expect(reopened.latestVerdict('p1')).toEqual({
      handle: 'p1',
      at: 3,
      status: 'permission',
      isRunningAgent: true,
      agentWait: wait,
    });
    expect(reopened.markLivePanesExited('host-restart', 99)).toBe(1);
    expect(reopened.getPane('p1')).toMatchObject({ exitedAt: 99, exitCause: 'host-restart', exitCode: null });
    reopened.close();
  });

  it('stores guests and command-hook runs', () => {
    const store = openStore(tempStorePath());
    store.upsertGuest({ kind: 'netns', name: 'g1', target: 'g1', createdAt: 1 });
    store.upsertGuest({ kind: 'netns', name: 'g1', target: 'g1b', createdAt: 2, options: { agents: ['codex'] } });
    expect(store.listGuests()).toEqual([
      { kind: 'netns', name: 'g1', target: 'g1b', createdAt: 1, options: { agents: ['codex'] } },
    ]);
    expect(store.deleteGuest('netns', 'g1')).toBe(true);
    expect(store.deleteGuest('netns', 'g1')).toBe(false);
    store.insertCommandHookRun({ handle: null, event: 'stop', at: 1, record: { kind: 'run' } });
    expect(store.countCommandHookRuns()).toBe(1);
    store.close();
  });
});
