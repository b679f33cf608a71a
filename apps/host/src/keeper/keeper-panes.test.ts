import { KeeperCallError, type KeeperClient, type KeptExit } from '@orca/keeper';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../runtime/logger.ts';
import { keeperPanes } from './keeper-panes.ts';
import { keeperProcess } from './keeper-process.ts';

/** A keeper link whose events the test sends; `spawn` answers when the test says. */
function fakeLink() {
  const data: ((id: string, chunk: string, to: number) => void)[] = [];
  const exits: ((id: string, exit: KeptExit) => void)[] = [];
  const closes: ((why: string) => void)[] = [];
  let answer: (pid: number) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const sent: string[] = [];
  type Slice = { from: number; to: number; data: string; exit?: KeptExit };
  const pending: { resolve: (r: Slice) => void; reject: (e: Error) => void }[] = [];
  const attaches: { id: string; from: number }[] = [];
  const link = {
    welcome: { pid: 1, protocol: 1, version: 'test', panes: [], capabilities: [] },
    spawn: () =>
      new Promise<{ pid: number }>((resolve, reject) => {
        answer = (pid) => resolve({ pid });
        fail = reject;
      }),
    onData: (l: (id: string, chunk: string, to: number) => void) => void data.push(l),
    onExit: (l: (id: string, exit: KeptExit) => void) => void exits.push(l),
    onClose: (l: (why: string) => void) => void closes.push(l),
    closed: false,
    attach: (id: string, from: number) => {
      if ((link as { closed: boolean }).closed) return Promise.reject(new KeeperCallError('link_closed', 'closed'));
      attaches.push({ id, from });
      return new Promise((resolve, reject) => {
        pending.push({ resolve: (r) => resolve({ truncated: false, modes: [], ...r }), reject });
      });
    },
    close: () => undefined,
    write: (id: string, data: string) => void sent.push(`${id}:${data}`),
    resize: () => undefined,
    kill: (id: string, signal?: string) => void sent.push(`kill ${id} ${signal}`),
    flow: (id: string, paused: boolean) => void sent.push(`flow ${id} ${paused}`),
  } as unknown as KeeperClient;
  return {
    link,
    output: (id: string, chunk: string, to: number) => {
      for (const l of data) l(id, chunk, to);
    },
    exit: (id: string, code: number) => {
      for (const l of exits) l(id, { code, signal: null, at: 0 });
    },
    close: (why: string) => {
      for (const l of closes) l(why);
    },
    answer: (pid: number) => answer(pid),
    fail: (error: Error) => fail(error),
    sent,
    attaches,
    /** Answers the oldest attach still waiting. */
    answerAttach: (r: Slice) => pending.shift()?.resolve(r),
    failAttach: (e: Error) => pending.shift()?.reject(e),
    drop: (why: string) => {
      (link as { closed: boolean }).closed = true;
      for (const l of closes) l(why);
      for (const p of pending.splice(0)) p.reject(new KeeperCallError('link_closed', why));
    },
  };
}

const spec = { file: '/bin/echo', args: ['hi'], cwd: '/', env: {}, cols: 80, rows: 24 };

describe('keeperPanes', () => {
  it('holds output that came before the spawn answer until the pane listens and says ready', async () => {
    const fake = fakeLink();
    const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => false });
    const spawning = spawner.spawn('pane-1', spec);
    // The program printed and ended before the keeper's answer was read.
    fake.output('pane-1', 'first ', 6);
    fake.output('pane-1', 'line\r\n', 12);
    fake.exit('pane-1', 0);
    fake.answer(4242);
    const proc = await spawning;
    // Output arriving after the answer but before the owner listens is held too.
    fake.output('pane-1', 'late', 16);
    const seen: string[] = [];
    const ended: (number | null)[] = [];
    proc.onData((chunk) => seen.push(chunk));
    proc.onExit((exit) => ended.push(exit.code));
    expect(seen).toEqual([]);
    proc.ready?.(0);
    expect(seen.join('')).toBe('first line\r\nlate');
    expect(ended).toEqual([0]);
    expect(proc.pid).toBe(4242);
  });

  it('ends every pane with cause keeper-died when the link drops, unless the host detached', async () => {
    for (const detached of [false, true]) {
      const fake = fakeLink();
      const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => detached });
      const spawning = spawner.spawn('pane-2', spec);
      fake.answer(7);
      const proc = await spawning;
      const causes: (string | undefined)[] = [];
      proc.onExit((exit) => causes.push(exit.cause));
      proc.ready?.(0);
      fake.close('socket closed');
      await new Promise((r) => setImmediate(r));
      expect(causes).toEqual(detached ? [] : ['keeper-died']);
    }
  });

  it('drops output of another pane id and output of a pane whose spawn failed', async () => {
    const fake = fakeLink();
    const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => false });
    fake.output('pane-unknown', 'junk', 4);
    const spawning = spawner.spawn('pane-3', spec);
    fake.output('pane-other', 'not mine', 8);
    fake.answer(9);
    const proc = await spawning;
    const seen: string[] = [];
    proc.onData((chunk) => seen.push(chunk));
    proc.ready?.(0);
    expect(seen).toEqual([]);
  });

  it('a dropped link to a keeper that lives is attached again: each pane from its position, the slice before live output, input typed meanwhile after', async () => {
    const old = fakeLink();
    const next = fakeLink();
    let relinked: (l: KeeperClient | null) => void = () => undefined;
    const panes = keeperPanes(old.link, {
      log: silentLogger(),
      detached: () => false,
      relink: () =>
        new Promise((resolve) => {
          relinked = resolve;
        }),
    });
    const spawning = panes.spawner.spawn('pane-4', spec);
    old.answer(11);
    const proc = await spawning;
    const seen: string[] = [];
    const ended: (string | undefined)[] = [];
    proc.onData((chunk) => seen.push(chunk));
    proc.onExit((exit) => ended.push(exit.cause));
    proc.ready?.(0);
    old.output('pane-4', 'abc', 3);
    old.drop('dead link (stall)');
    // Typed while the link is being attached again: kept, not lost.
    proc.write('typed-in-the-gap');
    expect(old.sent).toEqual([]);
    relinked(next.link);
    await new Promise((r) => setImmediate(r));
    expect(next.attaches).toEqual([{ id: 'pane-4', from: 3 }]);
    // Live output that came in the same read as the attach answer is held behind the slice.
    next.output('pane-4', 'ghi', 9);
    next.answerAttach({ from: 3, to: 6, data: 'def' });
    await new Promise((r) => setImmediate(r));
    expect(seen.join('')).toBe('abcdefghi');
    expect(next.sent).toEqual(['pane-4:typed-in-the-gap']);
    proc.write('after');
    expect(next.sent).toEqual(['pane-4:typed-in-the-gap', 'pane-4:after']);
    expect(ended).toEqual([]);
    // The new link's events reach the pane.
    next.exit('pane-4', 0);
    expect(ended).toEqual([undefined]);
  });

  it('a dropped link whose keeper is gone (no new link) ends every pane with cause keeper-died', async () => {
    const old = fakeLink();
    const panes = keeperPanes(old.link, { log: silentLogger(), detached: () => false, relink: async () => null });
    const spawning = panes.spawner.spawn('pane-5', spec);
    old.answer(12);
    const proc = await spawning;
    const causes: (string | undefined)[] = [];
    proc.onExit((exit) => causes.push(exit.cause));
    proc.ready?.(0);
    old.drop('socket closed');
    await new Promise((r) => setImmediate(r));
    expect(causes).toEqual(['keeper-died']);
  });

  it('a spawn whose answer never came is killed by id (it may have started), one refused as existing is not', async () => {
    const fake = fakeLink();
    const { spawner } = keeperPanes(fake.link, { log: silentLogger(), detached: () => false });
    const timedOut = spawner.spawn('pane-6', spec);
    fake.fail(new KeeperCallError('link_timeout', 'no answer in 15000 ms'));
    await expect(timedOut).rejects.toMatchObject({ code: 'ORCA_HOST_PANE_SPAWN' });
    const existing = spawner.spawn('pane-7', spec);
    fake.fail(new KeeperCallError('pane_exists', 'pane pane-7 exists'));
    await expect(existing).rejects.toMatchObject({ code: 'ORCA_HOST_PANE_SPAWN' });
    expect(fake.sent).toEqual(['kill pane-6 SIGKILL']);
  });

  async function twoPanes(o: { detached?: () => boolean } = {}) {
    const links = [fakeLink(), fakeLink(), fakeLink()];
    let offered = 1;
    const panes = keeperPanes(links[0]?.link as KeeperClient, {
      log: silentLogger(),
      detached: o.detached ?? (() => false),
      relink: async () => links[offered++]?.link ?? null,
    });
    const procs = [];
    for (const id of ['p1', 'p2']) {
      const spawning = panes.spawner.spawn(id, spec);
      links[0]?.answer(id === 'p1' ? 21 : 22);
      const proc = await spawning;
      const seen: string[] = [];
      const ended: (string | undefined)[] = [];
      proc.onData((c) => seen.push(c));
      proc.onExit((e) => ended.push(e.cause ?? `exit ${e.code}`));
      proc.ready?.(0);
      procs.push({ proc, seen, ended });
    }
    return { links, panes, procs };
  }
  const turn = () => new Promise((r) => setImmediate(r));
  const turns = async (done: () => boolean) => {
    for (let i = 0; i < 50 && !done(); i++) await turn();
    expect(done()).toBe(true);
  };

  it('a second drop while panes are being attached again ends none of them; the newest link attaches all, and queued input goes there once', async () => {
    const { links, procs } = await twoPanes();
    const [l0, l1, l2] = links as [
      ReturnType<typeof fakeLink>,
      ReturnType<typeof fakeLink>,
      ReturnType<typeof fakeLink>,
    ];
    l0.output('p1', 'a', 1);
    l0.drop('stall');
    procs[0]?.proc.write('typed');
    await turn();
    expect(l1.attaches.map((a) => a.id)).toEqual(['p1']);
    l1.drop('stall again');
    await turn();
    await turn();
    expect(procs.map((p) => p.ended)).toEqual([[], []]);
    expect(l2.attaches).toEqual([{ id: 'p1', from: 1 }]);
    l2.answerAttach({ from: 1, to: 2, data: 'b' });
    await turns(() => l2.attaches.length === 2);
    expect(l2.attaches[1]).toEqual({ id: 'p2', from: 0 });
    l2.answerAttach({ from: 0, to: 1, data: 'c' });
    await turn();
    expect(procs.map((p) => p.seen.join(''))).toEqual(['ab', 'c']);
    expect(l1.sent).toEqual([]);
    expect(l2.sent).toEqual(['p1:typed']);
  });

  it('an exit of a pane not yet attached again waits for its attach, so its last output comes first', async () => {
    const { links, procs } = await twoPanes();
    const [l0, l1] = links as [ReturnType<typeof fakeLink>, ReturnType<typeof fakeLink>];
    l0.drop('stall');
    await turn();
    l1.exit('p2', 4);
    expect(procs[1]?.ended).toEqual([]);
    l1.answerAttach({ from: 0, to: 0, data: '' });
    await turn();
    l1.answerAttach({ from: 0, to: 4, data: 'TAIL', exit: { code: 4, signal: null, at: 1 } });
    await turn();
    expect(procs[1]?.seen.join('')).toBe('TAIL');
    expect(procs[1]?.ended).toEqual(['exit 4']);
  });

  it('a host stopping (detached) while panes are attached again ends none of them', async () => {
    let detached = false;
    const { links, procs } = await twoPanes({ detached: () => detached });
    const [l0, l1] = links as [ReturnType<typeof fakeLink>, ReturnType<typeof fakeLink>];
    l0.drop('stall');
    await turn();
    detached = true;
    l1.drop('closed by its owner');
    await turn();
    expect(procs.map((p) => p.ended)).toEqual([[], []]);
  });

  it('a pane paused by its host is paused again on the new link', async () => {
    const { links, procs } = await twoPanes();
    const [l0, l1] = links as [ReturnType<typeof fakeLink>, ReturnType<typeof fakeLink>];
    procs[0]?.proc.pause?.();
    l0.drop('stall');
    await turn();
    l1.answerAttach({ from: 0, to: 0, data: '' });
    await turn();
    expect(l1.sent).toEqual(['flow p1 true']);
  });

  it('a held pane taken over while its link drops is attached on the new link, never killed', async () => {
    const l0 = fakeLink();
    const l1 = fakeLink();
    const panes = keeperPanes(l0.link, { log: silentLogger(), detached: () => false, relink: async () => l1.link });
    const proc = keeperProcess(panes.sink, 'held', 31);
    const taking = panes.attachNew('held', proc);
    l0.drop('stall');
    await turns(() => l1.attaches.length === 1);
    l1.answerAttach({ from: 0, to: 5, data: 'hello' });
    await expect(taking).resolves.toMatchObject({ to: 5, data: 'hello' });
    expect([...l0.sent, ...l1.sent]).toEqual([]);
  });
});
