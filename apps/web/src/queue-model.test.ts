import { describe, expect, it } from 'vitest';
import { orderQueue, type QueueItem, queueStateText } from './queue-model.ts';

const item = (id: number, extra: Partial<QueueItem> = {}): QueueItem => ({
  id,
  handle: 'pane-1',
  state: 'queued',
  prompt: `p${id}`,
  source: 'web',
  createdAt: 1,
  updatedAt: 1,
  ...extra,
});

describe('the queue model', () => {
  it('words each state: place, proof and time of a submission, the code of a failure', () => {
    expect(queueStateText(item(1, { position: 2 }))).toBe('queued #2');
    expect(
      queueStateText(
        item(2, {
          state: 'submitted',
          receipt: {
            bytes: 9,
            promptDigest: 'f'.repeat(64),
            submitKeys: 1,
            submittedBy: 'hook',
            hookProof: 'text',
            stages: [
              { stage: 'ready', at: 10 },
              { stage: 'input_written', at: 12 },
              { stage: 'submitted', at: 300 },
            ],
          },
        }),
      ),
    ).toBe('submitted in 288 ms · its prompt hook carried this prompt');
    expect(queueStateText(item(3, { state: 'failed', error: { code: 'hook_blocked', message: 'no' } }))).toBe(
      'failed · hook_blocked',
    );
    expect(queueStateText(item(4, { state: 'delivering' }))).toBe('delivering');
    expect(queueStateText(item(5, { state: 'cancelled', error: { code: 'cancelled', message: 'removed' } }))).toBe(
      'cancelled',
    );
  });

  it('lists pending items by position, then finished ones newest first', () => {
    const items = [
      item(1, { state: 'submitted' }),
      item(5, { position: 2 }),
      item(3, { state: 'cancelled' }),
      item(4, { position: 1 }),
    ];
    expect(orderQueue(items).map((i) => i.id)).toEqual([4, 5, 3, 1]);
  });
});
