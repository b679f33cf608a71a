import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../rpc/dispatcher.ts';
import { BROWSER_METHODS, implement, RUNTIME_CONTRACT, typedCaller } from './index.ts';

describe('the runtime contract', () => {
  it('every method name has the area.verb shape and says whether browsers may call it', () => {
    for (const [name, spec] of Object.entries(RUNTIME_CONTRACT)) {
      expect(name).toMatch(/^[a-z]+\.[a-z]+$/);
      expect(typeof spec.browser).toBe('boolean');
      expect(typeof spec.streaming).toBe('boolean');
    }
  });

  it('keeps the methods that act on the whole host, run commands or reach outside off browsers', () => {
    for (const owner of [
      'guest.add',
      'guest.list',
      'guest.remove',
      'store.gc',
      'host.shutdown',
      'notify.test',
      'notify.log',
      'web.pair',
      'web.sessions',
      'web.revoke',
    ]) {
      expect(BROWSER_METHODS.has(owner), owner).toBe(false);
    }
    for (const board of ['terminal.list', 'terminal.dispatch', 'terminal.multiplex', 'queue.add', 'status.watch']) {
      expect(BROWSER_METHODS.has(board), board).toBe(true);
    }
  });

  it('implement serves a method with the contract schema and streaming flag', async () => {
    const show = implement(RUNTIME_CONTRACT, 'terminal.show', (p) => ({
      handle: p.handle,
      name: null,
      paneKey: 'k',
      cwd: '/',
      guest: null,
      command: 'bash',
      agent: null,
      title: null,
      status: null,
      isRunningAgent: false,
    }));
    expect(show.params).toBe(RUNTIME_CONTRACT['terminal.show'].params);
    expect(show.streaming).toBe(false);
    expect(implement(RUNTIME_CONTRACT, 'status.watch', () => null).streaming).toBe(true);
    const dispatcher = createDispatcher({ runtimeId: 'r', methods: [show] });
    const ok = JSON.parse(
      JSON.stringify(await dispatcher.dispatch('{"id":"1","method":"terminal.show","params":{"handle":"p1"}}')),
    );
    expect(ok).toMatchObject({ ok: true, result: { handle: 'p1', command: 'bash' } });
    const bad = await dispatcher.dispatch('{"id":"2","method":"terminal.show","params":{"handle":""}}');
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('typedCaller hands the method, params and event callback to the raw send unchanged', async () => {
    const sent: unknown[][] = [];
    const caller = typedCaller(async (...args) => {
      sent.push(args);
      return { panes: [] };
    });
    expect(await caller.call('terminal.list')).toEqual({ panes: [] });
    const onEvent = (): void => undefined;
    await caller.stream('queue.wait', { id: 3 }, onEvent);
    expect(sent).toEqual([
      ['terminal.list', undefined],
      ['queue.wait', { id: 3 }, onEvent],
    ]);
  });
});
