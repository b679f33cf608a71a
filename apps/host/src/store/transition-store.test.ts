import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.ts';

const transition = (handle: string, at: number) => ({
  handle,
  at,
  fromStatus: 'idle',
  toStatus: 'working',
  explanation: `{"n":${at}}`,
  recorded: '',
});

describe('transition store', () => {
  it("keeps each pane's newest transitions and leaves other panes' alone", async () => {
    const store = openStore(join(mkdtempSync(join(tmpdir(), 'orca-transitions-')), 'orca.sqlite'));
    for (let at = 1; at <= 10; at++) {
      store.insertTransition(transition('a', at), 3);
      if (at <= 4) store.insertTransition(transition('b', at), 3);
    }
    await store.committed();
    expect(store.transitions('a', 100).map((t) => t.at)).toEqual([8, 9, 10]);
    expect(store.transitions('b', 100).map((t) => t.at)).toEqual([2, 3, 4]);
    // Fewer than kept: nothing pruned.
    store.insertTransition(transition('c', 1), 3);
    store.insertTransition(transition('c', 2), 3);
    await store.committed();
    expect(store.transitions('c', 100).map((t) => t.at)).toEqual([1, 2]);
    store.close();
  });
});
