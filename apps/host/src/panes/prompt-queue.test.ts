import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../runtime/logger.ts';
import { openStore, type Store } from '../store/store.ts';
import { createDeliveries } from './deliveries.ts';
import { createPromptQueue } from './prompt-queue.ts';

const T = 1_700_000_000_000;

function storeWithPane(exitCause: string | null): { store: Store; paneKey: string } {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'orca-queue-')), 'orca.sqlite'));
  const paneKey = 'tabc:11111111-1111-4111-8111-111111111111';
  store.insertPane({
    handle: 'pane-abc',
    paneKey,
    tabId: 'tabc',
    name: null,
    cwd: '/',
    argv: ['claude'],
    guest: null,
    agent: 'claude',
    createdAt: T,
  });
  if (exitCause) store.markPaneExited('pane-abc', { at: T + 50_000, code: null, signal: 1, cause: exitCause });
  return { store, paneKey };
}

function deliveringItem(store: Store, prompt: string): number {
  const item = store.insertQueueItem({ handle: 'pane-abc', prompt, source: 'cli', createdAt: T, expiresAt: null });
  store.updateQueueItem(item.id, { state: 'delivering', at: T + 10_000 }, ['queued']);
  return item.id;
}

async function promptHook(store: Store, paneKey: string, at: number, prompt: string): Promise<void> {
  store.insertHookRow({
    paneKey,
    connectionId: 'local',
    source: 'claude',
    hookEventName: 'UserPromptSubmit',
    receivedAt: at,
    envelope: { source: 'claude', paneKey, payload: { hook_event_name: 'UserPromptSubmit', prompt } },
    row: null,
  });
  await store.committed();
}

function recoveredQueue(store: Store) {
  const queue = createPromptQueue({
    store,
    now: () => T + 60_000,
    log: silentLogger(),
    commandHooks: { beforeSubmitPrompt: async () => ({ blocked: false }) } as never,
    livePane: () => undefined,
    deliveries: createDeliveries(),
  });
  queue.recover();
  return queue;
}

describe('prompt queue recovery at start (never delivered twice)', () => {
  it('an item a stopped host was writing is submitted when a stored prompt hook after it carries its text', async () => {
    const { store, paneKey } = storeWithPane('host-restart');
    const id = deliveringItem(store, 'fix the tests');
    await promptHook(store, paneKey, T + 5_000, 'fix the tests'); // before the write: not this delivery
    await promptHook(store, paneKey, T + 10_400, 'fix the tests\n');
    const item = recoveredQueue(store).get(id);
    expect(item).toMatchObject({
      state: 'submitted',
      receipt: {
        submittedBy: 'hook',
        hookProof: 'text',
        recovered: true,
        stages: [
          { stage: 'input_written', at: T + 10_000 },
          { stage: 'submitted', at: T + 10_400 },
        ],
      },
    });
    store.close();
  });

  it('without such a hook (none, or one carrying another prompt) it fails with delivery_interrupted and is not written again', async () => {
    const { store, paneKey } = storeWithPane('host-restart');
    const none = deliveringItem(store, 'first');
    const other = deliveringItem(store, 'second');
    await promptHook(store, paneKey, T + 10_500, 'somebody else');
    const queue = recoveredQueue(store);
    for (const id of [none, other]) {
      expect(queue.get(id)).toMatchObject({ state: 'failed', error: { code: 'delivery_interrupted' } });
    }
    store.close();
  });

  it('a queued item of a pane that did not survive the restart fails with a code naming it', () => {
    const { store } = storeWithPane('host-restart');
    const item = store.insertQueueItem({
      handle: 'pane-abc',
      prompt: 'later',
      source: 'web',
      createdAt: T,
      expiresAt: null,
    });
    expect(recoveredQueue(store).get(item.id)).toMatchObject({
      state: 'failed',
      error: {
        code: 'terminal_guard_not_writable',
        message: 'pane pane-abc did not survive the host restart; the prompt was not sent',
      },
    });
    store.close();
  });
});
