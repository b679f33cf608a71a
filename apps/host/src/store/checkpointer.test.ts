import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.ts';
import { openStore, type Store } from './store.ts';

const tempPath = (): string => join(mkdtempSync(join(tmpdir(), 'orca-ckpt-')), 'orca.sqlite');
const pane: Parameters<Store['insertPane']>[0] = {
  handle: 'p1',
  paneKey: 'k1',
  tabId: 't1',
  name: null,
  cwd: '/',
  argv: ['sh'],
  guest: null,
  agent: null,
  createdAt: 10,
};

/** Commits `n` hook rows of ~2 KB each (more WAL pages than SQLite's own checkpoint threshold). */
async function writeRows(store: ReturnType<typeof openStore>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    store.insertHookRow({
      paneKey: pane.paneKey,
      connectionId: 'local',
      source: 'claude',
      hookEventName: 'Stop',
      receivedAt: i,
      envelope: { source: 'claude', payload: { hook_event_name: 'Stop', text: 'x'.repeat(2048) } },
      row: { state: 'done' },
    });
    if (i % 100 === 99) await store.committed();
  }
  await store.committed();
}

describe('background checkpoints', () => {
  it('the host connection never checkpoints: ~6 MB of WAL stays out of the file until the worker runs', async () => {
    const path = tempPath();
    const store = openStore(path, { backgroundCheckpoints: { intervalMs: 60_000 } });
    store.insertPane(pane);
    const fileBefore = statSync(path).size;
    await writeRows(store, 3000);
    // Why: SQLite's own threshold (1000 pages, ~4 MB) would have checkpointed inside a commit by now.
    expect(statSync(path).size).toBe(fileBefore);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(6_000_000);
    const kept = store.countHookRows();
    store.close();
    expect(statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    const again = openStore(path);
    expect(again.countHookRows()).toBe(kept);
    expect(kept).toBeGreaterThan(0);
    again.close();
  });

  it('the worker copies the WAL into the database file', async () => {
    const path = tempPath();
    const store = openStore(path, { backgroundCheckpoints: { intervalMs: 50 } });
    store.insertPane(pane);
    const fileBefore = statSync(path).size;
    await writeRows(store, 3000);
    await until('the worker checkpointed into the file', () => statSync(path).size > fileBefore + 1_000_000, {
      timeoutMs: 10_000,
    });
    store.close();
  });

  it('without the worker the same writes are checkpointed by the host connection itself (the control)', async () => {
    const path = tempPath();
    const store = openStore(path);
    store.insertPane(pane);
    const fileBefore = statSync(path).size;
    await writeRows(store, 3000);
    expect(statSync(path).size).toBeGreaterThan(fileBefore + 1_000_000);
    store.close();
  });

  it('a worker that cannot open the store is reported lost (the host then checkpoints itself again)', async () => {
    const lost: string[] = [];
    startCheckpointer(join(mkdtempSync(join(tmpdir(), 'orca-ckpt-')), 'missing.sqlite'), 50, (why) => lost.push(why));
    await until('the loss reported', () => lost.length > 0, { timeoutMs: 10_000 });
    expect(lost).toHaveLength(1);
  });
});
