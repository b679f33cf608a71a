import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { SNAPSHOT_BUDGETS, TERMINAL_LIMITS } from '../limits.ts';
import type { TerminalPort } from './backend.ts';
import { createTerminalClient } from './client.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { createTerminalHost } from './host.ts';
import { decodeJsonPayload, encodeJsonPayload } from './json-payload.ts';
import { Opcode } from './opcodes.ts';

function port(overrides: Partial<TerminalPort> = {}): TerminalPort & { emit(d: string): void } {
  const listeners = new Set<(d: string) => void>();
  return {
    cols: 80,
    rows: 24,
    write: () => true,
    resize: () => {},
    serialize: () => ({ data: '' }),
    onOutput: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (d) => {
      for (const l of listeners) l(d);
    },
    ...overrides,
  };
}

const subscribe = (streamId: number, extra: Record<string, unknown> = {}) =>
  encodeFrame({
    opcode: Opcode.Subscribe,
    streamId: 0,
    seq: 0,
    payload: encodeJsonPayload({ streamId, terminal: 't', ...extra }),
  });

describe('host limits', () => {
  it(`over ${TERMINAL_LIMITS.maxActiveStreams} streams → terminal_stream_limit_exceeded then end`, () => {
    const events: Array<Record<string, unknown>> = [];
    const host = createTerminalHost({ backend: { open: () => port() }, send: () => true, emit: (e) => events.push(e) });
    for (let id = 1; id <= TERMINAL_LIMITS.maxActiveStreams + 1; id++) host.receive(subscribe(id));
    const last = TERMINAL_LIMITS.maxActiveStreams + 1;
    expect(events.filter((e) => e.type === 'subscribed')).toHaveLength(TERMINAL_LIMITS.maxActiveStreams);
    expect(events.slice(-2)).toEqual([
      { type: 'error', streamId: last, message: 'terminal_stream_limit_exceeded' },
      { type: 'end', streamId: last },
    ]);
  });

  it('client retries after end with a backoff of 0.5 s doubling', async () => {
    const clock = createManualClock();
    const subscribes: number[] = [];
    const client = createTerminalClient({
      type: 'desktop',
      clock,
      send: (b) => {
        if (b[2] === Opcode.Subscribe) subscribes.push(clock.now());
        return true;
      },
      call: async () => undefined,
    });
    const id = client.subscribe({ terminal: 't' });
    client.handleEvent({ type: 'ready' });
    for (let i = 0; i < 2; i++) {
      client.handleEvent({ type: 'error', streamId: id, message: 'terminal_stream_limit_exceeded' });
      client.handleEvent({ type: 'end', streamId: id });
      clock.advance(TERMINAL_LIMITS.subscribeRetryInitialMs * 2 ** i);
    }
    expect(subscribes).toEqual([0, 500, 1500]);
  });

  it('mobile initial snapshot tries 1000, 500, 250, 100, 25, 0 rows until ≤ 512 KiB; desktop asks for 0', () => {
    const asked: number[] = [];
    const serialize = ({ scrollbackRows }: { scrollbackRows: number }) => {
      asked.push(scrollbackRows);
      return { data: 'x'.repeat(scrollbackRows > 100 ? SNAPSHOT_BUDGETS.mobileInitialMaxBytes + 1 : 10) };
    };
    const host = createTerminalHost({ backend: { open: () => port({ serialize }) }, send: () => true, emit: () => {} });
    host.receive(subscribe(1, { client: { id: 'm', type: 'mobile' } }));
    expect(asked).toEqual([1000, 500, 250, 100]);
    asked.length = 0;
    host.receive(subscribe(2));
    expect(asked).toEqual([SNAPSHOT_BUDGETS.desktopInitialScrollbackRows]);
  });

  it('ackOutput: output beyond the window queues; a queue over its cap is dropped and a recovery snapshot follows', () => {
    const p = port();
    const sent: Array<{ opcode: number; json?: unknown }> = [];
    const host = createTerminalHost({
      backend: { open: () => p },
      send: (b) => {
        const d = decodeFrame(b);
        if (d.ok)
          sent.push({
            opcode: d.value.opcode,
            json: d.value.opcode === 2 ? (decodeJsonPayload(d.value.payload) as { value?: unknown }).value : undefined,
          });
        return true;
      },
      emit: () => {},
    });
    host.receive(subscribe(1, { capabilities: { ackOutput: 1 } }));
    sent.length = 0;
    const chunk = 'y'.repeat(TERMINAL_LIMITS.chunkBytes);
    const windowChunks = TERMINAL_LIMITS.streamWindowInitialBytes / TERMINAL_LIMITS.chunkBytes;
    for (let i = 0; i < Math.ceil(windowChunks); i++) p.emit(chunk);
    const outputs = sent.filter((f) => f.opcode === Opcode.Output).length;
    expect(outputs).toBe(Math.floor(windowChunks));
    const queueChunks = Math.floor(TERMINAL_LIMITS.pendingQueueCapBytes / TERMINAL_LIMITS.chunkBytes);
    for (let i = 0; i < queueChunks; i++) p.emit(chunk);
    expect(sent.filter((f) => f.opcode === Opcode.SnapshotStart)).toEqual([
      {
        opcode: Opcode.SnapshotStart,
        json: expect.objectContaining({ kind: 'scrollback', reason: 'ack-pending-overflow' }),
      },
    ]);
  });

  it("host policy 'close' fails the connection on an undecodable JSON payload; 'drop' counts it", () => {
    for (const policy of ['drop', 'close'] as const) {
      const events: Array<Record<string, unknown>> = [];
      const host = createTerminalHost({
        backend: { open: () => port() },
        send: () => true,
        emit: (e) => events.push(e),
        policy,
      });
      host.receive(subscribe(1));
      host.receive(
        encodeFrame({ opcode: Opcode.Resize, streamId: 1, seq: 0, payload: new TextEncoder().encode('{bad') }),
      );
      host.receive(subscribe(2));
      expect(host.stats().byReason).toEqual({ 'json-invalid': 1 });
      expect(events.filter((e) => e.type === 'subscribed')).toHaveLength(policy === 'drop' ? 2 : 1);
    }
  });

  it('a send the transport refuses closes the whole multiplex', () => {
    const p = port({ serialize: () => ({ data: 'abc' }) });
    let calls = 0;
    const host = createTerminalHost({ backend: { open: () => p }, send: () => ++calls < 2, emit: () => {} });
    host.receive(subscribe(1));
    expect(calls).toBe(2);
    p.emit('more');
    host.receive(subscribe(2));
    expect(calls).toBe(2);
  });
});
