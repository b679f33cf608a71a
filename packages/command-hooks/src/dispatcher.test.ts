import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { until } from '@orca/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hook, shq, tempDir, testRunner } from '../test/support.ts';
import { DetachedDispatcher, type DispatchStatus } from './dispatcher.ts';
import { MAX_DETACHED_PENDING, MAX_DETACHED_RUNNING } from './limits.ts';
import type { DropRecord, RunRecord } from './records.ts';

/** A cursor stop hook that logs its loop_count at start, then waits for `go`. */
function gatedHook(dir: string) {
  const started = path.join(dir, 'started.log');
  const go = path.join(dir, 'go');
  return {
    started,
    go,
    hook: hook({
      dialect: 'cursor',
      event: 'stop',
      wireEvent: 'stop',
      cwd: dir,
      timeoutMs: 60_000,
      command: `input=$(cat); n=$(printf '%s' "$input" | sed -n 's/.*"loop_count":\\([0-9]*\\).*/\\1/p'); echo "$n" >> ${shq(started)}; while [ ! -f ${shq(go)} ]; do sleep 0.05; done`,
    }),
  };
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);
const loopCountOf = (r: RunRecord) => (JSON.parse(r.stdin) as { loop_count: number }).loop_count;

describe('detached dispatch with real slow hooks', () => {
  it('8 running, FIFO of 100, then drops with a record; FIFO start order; nothing lost', async () => {
    const dir = tempDir();
    const g = gatedHook(dir);
    let tick = 0;
    const t = testRunner({ hooks: [g.hook], clock: () => tick++, baseEnv: { PATH: process.env.PATH ?? '' } });
    const statuses: DispatchStatus[] = [];
    for (let i = 0; i < MAX_DETACHED_RUNNING + MAX_DETACHED_PENDING + 3; i++) {
      statuses.push(
        ...t.runner.emitDetached('stop', { status: 'aborted', loopCount: i }, { threadId: 'A', turnTreeId: 'tt' }),
      );
    }
    expect(statuses).toEqual([
      ...Array(MAX_DETACHED_RUNNING).fill('running'),
      ...Array(MAX_DETACHED_PENDING).fill('pending'),
      'dropped',
      'dropped',
      'dropped',
    ]);
    await until('the first 8 hooks to start', () => lines(g.started).length === MAX_DETACHED_RUNNING);
    // Thread isolation: another thread still starts at once. Its start is also the sentinel: it was
    // dispatched after every thread-A hook, so once it ran, no ninth A hook may have started.
    expect(t.runner.emitDetached('stop', { status: 'aborted', loopCount: 999 }, { threadId: 'B' })).toEqual([
      'running',
    ]);
    await until('the thread-B hook to start', () => lines(g.started).includes('999'));
    expect(lines(g.started).filter((n) => n !== '999')).toHaveLength(MAX_DETACHED_RUNNING);
    writeFileSync(g.go, '');
    await t.runner.whenIdle();
    const runs = t.runs().filter((r) => r.hookId === g.hook.id && loopCountOf(r) !== 999);
    expect(runs).toHaveLength(MAX_DETACHED_RUNNING + MAX_DETACHED_PENDING);
    const byStart = [...runs].sort((a, b) => a.startedAt - b.startedAt).map(loopCountOf);
    expect(byStart).toEqual(Array.from({ length: byStart.length }, (_, i) => i));
    const drops = t.records.filter((r): r is DropRecord => r.kind === 'dropped');
    expect(drops.map((d) => ({ ...d, at: 0 }))).toEqual(
      [0, 1, 2].map(() => ({
        kind: 'dropped',
        event: 'stop',
        hookId: g.hook.id,
        threadId: 'A',
        turnTreeId: 'tt',
        reason: 'queue-full',
        at: 0,
      })),
    );
  }, 60_000);

  it('abortThread drops pending (recorded), refuses later dispatches, lets running ones finish', async () => {
    const dir = tempDir();
    const g = gatedHook(dir);
    const t = testRunner({ hooks: [g.hook], baseEnv: { PATH: process.env.PATH ?? '' } });
    for (let i = 0; i < MAX_DETACHED_RUNNING + 5; i++)
      t.runner.emitDetached('stop', { status: 'completed', loopCount: i }, { conversationId: 'c' });
    await until('the first 8 hooks to start', () => lines(g.started).length === MAX_DETACHED_RUNNING);
    t.runner.abortThread('c');
    expect(t.runner.emitDetached('stop', { status: 'completed' }, { conversationId: 'c' })).toEqual(['dropped']);
    writeFileSync(g.go, '');
    await t.runner.whenIdle('c');
    expect(t.runs()).toHaveLength(MAX_DETACHED_RUNNING);
    expect(t.records.filter((r) => r.kind === 'dropped').map((r) => (r.kind === 'dropped' ? r.reason : ''))).toEqual([
      ...Array(5).fill('aborted'),
      'aborted',
    ]);
  }, 60_000);
});

describe('DetachedDispatcher model (fast-check)', () => {
  type Cmd =
    | { op: 'dispatch'; thread: number }
    | { op: 'finish'; thread: number; fail: boolean }
    | { op: 'abort'; thread: number };
  const cmd: fc.Arbitrary<Cmd> = fc.oneof(
    fc.record({ op: fc.constant('dispatch' as const), thread: fc.nat({ max: 2 }) }),
    fc.record({ op: fc.constant('finish' as const), thread: fc.nat({ max: 2 }), fail: fc.boolean() }),
    fc.record({ op: fc.constant('abort' as const), thread: fc.nat({ max: 2 }) }),
  );

  it('matches a reference model of capacity, FIFO, drops and aborts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { maxLength: 60 }), async (cmds) => {
        const errors: unknown[] = [];
        const d = new DetachedDispatcher({ maxRunning: 2, maxPending: 3, onError: (e) => errors.push(e) });
        const resolvers = new Map<number, { id: number; done: (fail: boolean) => void }[]>();
        const model = new Map<number, { running: number[]; pending: number[]; aborted: boolean }>();
        const started: number[] = [];
        const expectedStarts: number[] = [];
        const drops: string[] = [];
        const expectedDrops: string[] = [];
        let nextId = 0;
        let failedFinishes = 0;
        const m = (t: number) => {
          let s = model.get(t);
          if (!s) {
            s = { running: [], pending: [], aborted: false };
            model.set(t, s);
          }
          return s;
        };
        for (const c of cmds) {
          const s = m(c.thread);
          if (c.op === 'dispatch') {
            const id = nextId++;
            const status = d.dispatch(String(c.thread), {
              run: () =>
                new Promise<void>((resolve, reject) => {
                  started.push(id);
                  const list = resolvers.get(c.thread) ?? [];
                  list.push({ id, done: (fail) => (fail ? reject(new Error('x')) : resolve()) });
                  resolvers.set(c.thread, list);
                }),
              onDrop: (reason) => drops.push(`${id}:${reason}`),
            });
            let want: DispatchStatus;
            if (s.aborted) {
              want = 'dropped';
              expectedDrops.push(`${id}:aborted`);
            } else if (s.running.length < 2) {
              want = 'running';
              s.running.push(id);
              expectedStarts.push(id);
            } else if (s.pending.length < 3) {
              want = 'pending';
              s.pending.push(id);
            } else {
              want = 'dropped';
              expectedDrops.push(`${id}:queue-full`);
            }
            expect(status).toBe(want);
          } else if (c.op === 'finish') {
            const list = resolvers.get(c.thread) ?? [];
            const first = list.shift();
            if (!first) continue;
            if (c.fail) failedFinishes++;
            first.done(c.fail);
            await new Promise((r) => setImmediate(r));
            s.running = s.running.filter((x) => x !== first.id);
            const next = s.pending.shift();
            if (next !== undefined) {
              s.running.push(next);
              expectedStarts.push(next);
            }
          } else {
            s.aborted = true;
            for (const id of s.pending.splice(0)) expectedDrops.push(`${id}:aborted`);
            d.abortThread(String(c.thread));
          }
          expect(d.load(String(c.thread))).toEqual({ running: s.running.length, pending: s.pending.length });
        }
        expect(started).toEqual(expectedStarts);
        expect(drops).toEqual(expectedDrops);
        expect(errors.length).toBe(failedFinishes);
      }),
      { numRuns: 200 },
    );
  });

  it('whenIdle resolves once a thread drains; a throwing task goes to onError and frees its slot', async () => {
    const errors: unknown[] = [];
    const d = new DetachedDispatcher({ maxRunning: 1, onError: (e) => errors.push(e) });
    const order: string[] = [];
    d.dispatch('t', {
      run: () => {
        throw new Error('sync throw');
      },
      onDrop: () => {},
    });
    d.dispatch('t', { run: async () => void order.push('second'), onDrop: () => {} });
    await d.whenIdle('t');
    await d.whenIdle();
    expect({ order, errors: errors.map((e) => (e instanceof Error ? e.message : '')) }).toEqual({
      order: ['second'],
      errors: ['sync throw'],
    });
  });
});
