import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.ts';

describe('the prompt queue table', () => {
  it('keeps the items that finished last, whatever their age: an old item finishing now is not pruned', () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'orca-qs-')), 'orca.sqlite'));
    const add = (n: number) =>
      store.insertQueueItem({ handle: 'p', prompt: `p${n}`, source: 'cli', createdAt: n, expiresAt: null }).id;
    const [oldest, b, c] = [add(1), add(2), add(3)];
    store.updateQueueItem(b as number, { state: 'cancelled', at: 10 }, ['queued']);
    store.updateQueueItem(c as number, { state: 'cancelled', at: 11 }, ['queued']);
    store.updateQueueItem(oldest as number, { state: 'expired', at: 12 }, ['queued']);
    expect(store.pruneFinishedQueueItems('p', 1)).toBe(2);
    expect(store.listQueueItems('p').map((i) => [i.id, i.state])).toEqual([[oldest, 'expired']]);
    store.close();
  });

  it('a state changes only from the states named; positions follow a reorder', () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'orca-qs-')), 'orca.sqlite'));
    const ids = [1, 2, 3].map(
      (n) => store.insertQueueItem({ handle: 'p', prompt: `p${n}`, source: 'cli', createdAt: n, expiresAt: null }).id,
    );
    expect(store.updateQueueItem(ids[0] as number, { state: 'submitted', at: 5 }, ['delivering'])).toBe(false);
    expect(store.updateQueueItem(ids[0] as number, { state: 'delivering', at: 5 }, ['queued'])).toBe(true);
    expect(store.getQueueItem(ids[0] as number)?.deliveringAt).toBe(5);
    store.reorderQueue('p', [ids[0] as number, ids[2] as number, ids[1] as number]);
    expect(store.listQueueItems('p').map((i) => i.prompt)).toEqual(['p1', 'p3', 'p2']);
    expect(store.countPendingQueueItems('p')).toBe(3);
    store.close();
  });
});
