import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_ROW_MAX_AGE_MS, HOOK_ROWS_PER_PANE_MAX, HOOK_ROWS_PER_PANE_MAX_BYTES } from '../constants.ts';
import { openStore, type Store } from './store.ts';

const KEY = 'tab1:1b4e28ba-2fa1-41d2-883f-0016d3cca427';
const ORPHAN = 'tab9:2b4e28ba-2fa1-41d2-883f-0016d3cca427';

function freshStore(): Store {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'orca-retain-')), 'orca.sqlite'));
  store.insertPane({
    handle: 'p1',
    paneKey: KEY,
    tabId: 'tab1',
    name: null,
    cwd: '/',
    argv: ['sh'],
    guest: null,
    agent: null,
    createdAt: 1,
  });
  return store;
}

function row(paneKey: string, receivedAt: number, payload = 'x') {
  return {
    paneKey,
    connectionId: 'local',
    source: 'claude',
    hookEventName: 'Stop',
    receivedAt,
    envelope: { paneKey, payload: { blob: payload } },
    row: null,
  };
}

describe('store retention', () => {
  it(`keeps at most ${HOOK_ROWS_PER_PANE_MAX} hook rows per pane, the newest`, () => {
    const store = freshStore();
    for (let i = 0; i < HOOK_ROWS_PER_PANE_MAX + 500; i += 1) store.insertHookRow(row(KEY, i));
    const rows = store.hookRows(KEY);
    expect(rows.length).toBeLessThanOrEqual(HOOK_ROWS_PER_PANE_MAX);
    expect(rows.length).toBeGreaterThan(HOOK_ROWS_PER_PANE_MAX / 2);
    expect(rows.at(-1)?.receivedAt).toBe(HOOK_ROWS_PER_PANE_MAX + 499);
    store.close();
  });

  it(`keeps at most ${HOOK_ROWS_PER_PANE_MAX_BYTES} B of hook rows per pane, and the file stays bounded`, () => {
    const store = freshStore();
    const big = 'y'.repeat(900_000);
    for (let i = 0; i < 60; i += 1) store.insertHookRow(row(KEY, i, big));
    const kept = store.hookRows(KEY);
    const bytes = kept.reduce((n, r) => n + JSON.stringify(r.envelope).length, 0);
    store.gc({ now: 100 });
    const fileBytes = statSync(store.path).size + statSync(`${store.path}-wal`).size;
    console.log(`60 x 900 KB rows: kept ${kept.length} rows, ${bytes} B; store files ${fileBytes} B after gc`);
    expect(bytes).toBeLessThanOrEqual(HOOK_ROWS_PER_PANE_MAX_BYTES);
    expect(kept.at(-1)?.receivedAt).toBe(59);
    expect(fileBytes).toBeLessThan(HOOK_ROWS_PER_PANE_MAX_BYTES * 2);
    store.close();
  });

  it('gc drops rows older than the retention age and rows of unknown panes, and compacts the file', () => {
    const store = freshStore();
    const now = HOOK_ROW_MAX_AGE_MS * 3;
    store.insertHookRow(row(KEY, now - HOOK_ROW_MAX_AGE_MS - 1));
    store.insertHookRow(row(KEY, now - 1000));
    const big = 'z'.repeat(500_000);
    for (let i = 0; i < 10; i += 1) store.insertHookRow(row(ORPHAN, now, big));
    const before = statSync(store.path).size + statSync(`${store.path}-wal`).size;
    const report = store.gc({ now });
    const after = statSync(store.path).size + statSync(`${store.path}-wal`).size;
    console.log(`gc: ${JSON.stringify(report)}; files ${before} B -> ${after} B`);
    expect(store.hookRows(KEY).map((r) => r.receivedAt)).toEqual([now - 1000]);
    expect(store.hookRows(ORPHAN)).toEqual([]);
    expect(report).toMatchObject({ expiredRows: 1, orphanRows: 10 });
    expect(after).toBeLessThan(1_000_000);
    store.close();
  });
});
