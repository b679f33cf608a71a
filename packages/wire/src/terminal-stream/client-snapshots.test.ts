import { describe, expect, it } from 'vitest';
import { createTerminalClient } from './client.ts';
import { encodeFrame } from './frame.ts';
import { encodeJsonPayload } from './json-payload.ts';
import { Opcode } from './opcodes.ts';
import { buildSnapshotMeta } from './snapshot-meta.ts';
import { encodeTextPayload } from './text-codec.ts';

function subscribedClient(maxSnapshotBytes?: number) {
  const sent: number[] = [];
  const seen: string[] = [];
  const client = createTerminalClient({
    type: 'desktop',
    policy: 'drop',
    ...(maxSnapshotBytes === undefined ? {} : { maxSnapshotBytes }),
    send: (b) => {
      sent.push(b[2] ?? 0);
      return true;
    },
    call: async () => undefined,
  });
  const id = client.subscribe({
    terminal: 't',
    sink: {
      onSnapshot: (s) => seen.push(`snapshot:${s.route}:${s.data}`),
      onOutput: (t) => seen.push(`output:${t}`),
      onSubscribed: () => seen.push('subscribed'),
    },
  });
  client.handleEvent({ type: 'ready' });
  client.handleEvent({ type: 'subscribed', streamId: id, terminal: 't', cols: 80, rows: 24 });
  const frame = (opcode: number, payload: Uint8Array, seq = 0) =>
    client.receive(encodeFrame({ opcode, streamId: id, seq, payload }));
  const snapshot = (data: string, seq: number, extra: Record<string, unknown> = {}) => {
    frame(Opcode.SnapshotStart, encodeJsonPayload(buildSnapshotMeta({ kind: 'scrollback', seq, ...extra })));
    if (data) frame(Opcode.SnapshotChunk, encodeTextPayload(data));
    frame(Opcode.SnapshotEnd, new Uint8Array());
  };
  return { client, id, sent, seen, frame, snapshot };
}

describe('client snapshots', () => {
  it('onSubscribed fires at the initial SnapshotEnd; an incomplete snapshot is never applied', () => {
    const t = subscribedClient();
    t.frame(Opcode.SnapshotStart, encodeJsonPayload(buildSnapshotMeta({ kind: 'scrollback', seq: 0 })));
    t.frame(Opcode.SnapshotChunk, encodeTextPayload('partial'));
    expect(t.seen).toEqual([]);
    t.client.drop();
    expect(t.seen).toEqual([]);
    const u = subscribedClient();
    u.snapshot('screen', 0);
    expect(u.seen).toEqual(['snapshot:initial:screen', 'subscribed']);
  });

  it('an initial snapshot over maxSnapshotBytes is discarded and reported as a client error', () => {
    const t = subscribedClient(4);
    t.snapshot('12345', 0);
    expect(t.seen).toEqual([]);
    expect(t.client.stats().errors).toEqual(['initial snapshot over 4 bytes']);
  });

  it('routes a later untagged Start as recovery', () => {
    const t = subscribedClient();
    t.snapshot('a', 0);
    t.snapshot('b', 0);
    expect(t.seen).toEqual(['snapshot:initial:a', 'subscribed', 'snapshot:recovery:b']);
  });

  it('OutputSpan: accepted spans render their data; an overlapping or malformed span resyncs', () => {
    const t = subscribedClient();
    t.snapshot('', 10);
    const span = (seq: number, value: unknown) => t.frame(Opcode.OutputSpan, encodeJsonPayload(value), seq);
    span(15, { data: 'hello', rawLength: 5, transformed: true });
    expect(t.seen.at(-1)).toBe('output:hello');
    span(17, { data: 'xyz', rawLength: 4, transformed: true });
    expect(t.sent.at(-1)).toBe(Opcode.SnapshotRequest);
    const u = subscribedClient();
    u.snapshot('', 0);
    u.frame(Opcode.OutputSpan, encodeJsonPayload({ data: 'x', rawLength: 1 }), 1);
    expect(u.sent.at(-1)).toBe(Opcode.SnapshotRequest);
  });
});
