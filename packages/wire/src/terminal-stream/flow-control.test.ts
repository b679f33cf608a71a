import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import { AckBatcher, FlowControl } from './flow-control.ts';

const KiB = 1024;

describe('FlowControl', () => {
  it('sends within the stream window, queues beyond it, overflows past the queue cap', () => {
    const flow = new FlowControl<string>();
    flow.addStream(1);
    expect(flow.offer(1, TERMINAL_LIMITS.streamWindowInitialBytes, 'fill')).toBe('send');
    expect(flow.offer(1, 1, 'q1')).toBe('queued');
    expect(flow.offer(1, TERMINAL_LIMITS.pendingQueueCapBytes - 1, 'q2')).toBe('queued');
    expect(flow.offer(1, 1, 'over')).toBe('overflow');
    // The queue was dropped: a credit releases nothing queued.
    expect(flow.credit(1, 10)).toEqual([]);
    expect(flow.inFlight(1)).toBe(TERMINAL_LIMITS.streamWindowInitialBytes - 10);
  });

  it('credits min(inFlight, amount), grows both windows up to their max, drains round-robin', () => {
    const flow = new FlowControl<string>();
    flow.addStream(1);
    flow.addStream(2);
    const window = TERMINAL_LIMITS.streamWindowInitialBytes;
    expect(flow.offer(1, window, 'a0')).toBe('send');
    expect(flow.offer(2, window, 'b0')).toBe('send');
    for (const id of [1, 2])
      for (let i = 1; i <= 3; i++) expect(flow.offer(id, 64 * KiB, `${id === 1 ? 'a' : 'b'}${i}`)).toBe('queued');
    expect(flow.credit(1, 10 * window).map((x) => x.item)).toEqual(['a1', 'a2', 'a3']);
    expect(flow.windows(1).stream).toBe(2 * window);
    // 128 KiB credit: 384 KiB in flight against a window grown to 640 KiB → all three 64 KiB items fit.
    expect(flow.credit(2, 128 * KiB).map((x) => x.item)).toEqual(['b1', 'b2', 'b3']);
    expect(flow.windows(2).connection).toBeLessThanOrEqual(TERMINAL_LIMITS.connectionWindowMaxBytes);
    for (let i = 0; i < 20; i++) flow.credit(1, 10 * window);
    expect(flow.windows(1).stream).toBeLessThanOrEqual(TERMINAL_LIMITS.streamWindowMaxBytes);
  });

  it('respects the connection window across streams', () => {
    const flow = new FlowControl<number>();
    const perStream = TERMINAL_LIMITS.streamWindowInitialBytes;
    const streams = TERMINAL_LIMITS.connectionWindowInitialBytes / perStream;
    for (let id = 1; id <= streams + 1; id++) flow.addStream(id);
    for (let id = 1; id <= streams; id++) expect(flow.offer(id, perStream, id)).toBe('send');
    expect(flow.offer(streams + 1, 1, 0)).toBe('queued');
  });
});

describe('AckBatcher', () => {
  it('flushes at 192 KiB at once, else after 4 ms', () => {
    const clock = createManualClock();
    const flushed: Array<[number, number]> = [];
    const batcher = new AckBatcher(clock, (id, bytes) => flushed.push([id, bytes]));
    batcher.record(1, TERMINAL_LIMITS.clientAckBatchBytes - 1);
    expect(flushed).toEqual([]);
    batcher.record(1, 1);
    expect(flushed).toEqual([[1, TERMINAL_LIMITS.clientAckBatchBytes]]);
    batcher.record(2, 10);
    clock.advance(TERMINAL_LIMITS.clientAckFlushMs - 1);
    expect(flushed).toHaveLength(1);
    clock.advance(1);
    expect(flushed).toEqual([
      [1, TERMINAL_LIMITS.clientAckBatchBytes],
      [2, 10],
    ]);
    batcher.record(3, 5);
    batcher.forget(3);
    clock.advance(10);
    expect(flushed).toHaveLength(2);
  });
});
