import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from './store.ts';
import { createWriteBatch } from './write-batch.ts';

const tempPath = (): string => join(mkdtempSync(join(tmpdir(), 'orca-batch-')), 'orca.sqlite');
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const pane = {
  handle: 'p1',
  paneKey: 'tab1:1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  tabId: 'tab1',
  name: null,
  cwd: '/tmp',
  argv: ['sh'],
  guest: null,
  agent: null,
  createdAt: 1,
};
const hookRow = (receivedAt: number) => ({
  paneKey: pane.paneKey,
  connectionId: 'local',
  source: 'claude',
  hookEventName: 'Stop',
  receivedAt,
  envelope: { source: 'claude', payload: { hook_event_name: 'Stop' } },
  row: null,
});

/** A second connection to the same file: sees only what the store committed. */
function outsider(path: string) {
  const db = new Database(path, { readonly: true });
  return {
    hookRows: () => (db.prepare('SELECT COUNT(*) AS n FROM hook_rows').get() as { n: number }).n,
    verdicts: () => (db.prepare('SELECT COUNT(*) AS n FROM verdicts').get() as { n: number }).n,
    close: () => db.close(),
  };
}

describe('createWriteBatch', () => {
  it('commits a turn of writes in one transaction: a failing write rolls back the whole turn and rejects its waiters', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const errors: unknown[] = [];
    const batch = createWriteBatch(db, { onError: (e) => errors.push(e) });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    batch.add(() => insert.run(1));
    batch.add(() => insert.run(2));
    batch.add(() => {
      throw new Error('boom');
    });
    const waited = batch.committed();
    expect(batch.pending).toBe(3);
    await expect(waited).rejects.toThrow('boom');
    expect(errors).toHaveLength(1);
    expect((db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(0);
    // the next turn starts clean
    batch.add(() => insert.run(3));
    await batch.committed();
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 3 }]);
  });

  it('flush commits at once and in order; committed() with nothing queued resolves', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const batch = createWriteBatch(db, { onError: () => undefined, schedule: () => undefined });
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let v = 0; v < 5; v += 1) batch.add(() => insert.run(v));
    const waited = batch.committed();
    batch.flush();
    await waited;
    expect(batch.pending).toBe(0);
    expect((db.prepare('SELECT v FROM t').all() as { v: number }[]).map((r) => r.v)).toEqual([0, 1, 2, 3, 4]);
    await expect(batch.committed()).resolves.toBeUndefined();
  });
});

describe('store write-behind', () => {
  it('hook rows and verdicts of one turn reach the file together at its end; committed() means on disk', async () => {
    const path = tempPath();
    const store = openStore(path);
    store.insertPane(pane);
    const other = outsider(path);
    for (let i = 0; i < 50; i += 1) store.insertHookRow(hookRow(i));
    store.insertVerdict({ handle: 'p1', at: 1, status: 'idle', isRunningAgent: true, agentWait: { kind: 'null' } });
    expect([other.hookRows(), other.verdicts()]).toEqual([0, 0]);
    await store.committed();
    expect([other.hookRows(), other.verdicts()]).toEqual([50, 1]);
    other.close();
    store.close();
  });

  it('reads see queued writes at once, and a direct write keeps the order (no orphan rows after deletePane)', () => {
    const store = openStore(tempPath());
    store.insertPane(pane);
    store.insertHookRow(hookRow(5));
    expect(store.hookRows(pane.paneKey).map((r) => r.receivedAt)).toEqual([5]);
    store.insertVerdict({
      handle: 'p1',
      at: 2,
      status: 'working',
      isRunningAgent: true,
      agentWait: { kind: 'absent' },
    });
    expect(store.latestVerdict('p1')?.status).toBe('working');
    store.insertHookRow(hookRow(6));
    expect(store.deletePane('p1')).toBe(true);
    expect(store.countHookRows()).toBe(0);
    expect(store.verdicts('p1')).toEqual([]);
    store.close();
  });

  it('close commits what is queued; a row queued after close is refused at the call', () => {
    const path = tempPath();
    const store = openStore(path);
    store.insertPane(pane);
    store.insertHookRow(hookRow(1));
    store.close();
    expect(() => store.insertHookRow(hookRow(2))).toThrow(expect.objectContaining({ code: 'ORCA_HOST_STORE' }));
    const reopened = openStore(path);
    expect(reopened.countHookRows()).toBe(1);
    reopened.close();
  });

  it('a commit that cannot get the write lock reports through onWriteError and rejects committed()', async () => {
    const path = tempPath();
    const failures: unknown[] = [];
    const store = openStore(path, { onWriteError: (e) => failures.push(e) });
    store.insertPane(pane);
    const locker = new Database(path);
    locker.exec('BEGIN IMMEDIATE');
    store.insertHookRow(hookRow(1));
    await expect(store.committed()).rejects.toThrow(
      expect.objectContaining({ code: 'ORCA_HOST_STORE', message: expect.stringMatching(/busy|locked/i) }),
    );
    expect(failures).toEqual([expect.objectContaining({ code: 'ORCA_HOST_STORE' })]);
    locker.exec('ROLLBACK');
    locker.close();
    store.insertHookRow(hookRow(2));
    await store.committed();
    expect(store.hookRows(pane.paneKey).map((r) => r.receivedAt)).toEqual([2]);
    store.close();
    await turn();
  });
});
