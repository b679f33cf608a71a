import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TerminalPort } from './backend.ts';
import { negotiate } from './capabilities.ts';
import { createTerminalClient } from './client.ts';
import { encodeFrame, FRAME_REJECT_REASONS } from './frame.ts';
import { createTerminalHost } from './host.ts';
import { encodeJsonPayload } from './json-payload.ts';

const everything = negotiate(
  { ackOutput: 1, ackOutputSourceRanges: 1, desktopViewportClaims: 1, outputPause: 1, writeUnavailable: 1 },
  { clientType: 'desktop', sourceRanges: true },
);

const payloads = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.jsonValue().map((v) => encodeJsonPayload(v)),
  fc.constantFrom(
    encodeJsonPayload({ streamId: 1, terminal: 't', capabilities: { ackOutput: 1 } }),
    encodeJsonPayload({ streamId: 2, terminal: 't', client: { id: 'm', type: 'mobile' } }),
    encodeJsonPayload({ cols: 80, rows: 24 }),
    encodeJsonPayload({ bytes: 10 }),
    encodeJsonPayload({ paused: true }),
    encodeJsonPayload({ requestId: 1, scrollbackRows: 5 }),
    encodeJsonPayload({
      kind: 'scrollback',
      cols: 80,
      rows: 24,
      truncated: false,
      truncatedByByteBudget: false,
      seq: 0,
    }),
    new TextEncoder().encode('{"a":'),
  ),
);

const frames = fc.array(
  fc.oneof(
    fc
      .record({
        opcode: fc.integer({ min: 0, max: 20 }),
        streamId: fc.constantFrom(0, 1, 2, 99),
        seq: fc.nat(100),
        payload: payloads,
      })
      .map((f) => encodeFrame(f, everything)),
    fc.uint8Array({ maxLength: 40 }),
  ),
  { maxLength: 40 },
);

function port(): TerminalPort {
  return {
    cols: 80,
    rows: 24,
    sourceRanges: true,
    write: (d) => d !== 'refuse',
    resize: () => {},
    serialize: () => ({ data: 'screen' }),
    onOutput: () => () => {},
  };
}

describe('receivers under random frames (drop policy)', () => {
  it('host: never throws; every frame is counted exactly once; reasons from the closed list', () => {
    fc.assert(
      fc.property(frames, (list) => {
        const host = createTerminalHost({
          backend: { open: (h) => (h === 't' ? port() : null) },
          send: () => true,
          emit: () => {},
        });
        for (const f of list) host.receive(f);
        const stats = host.stats();
        expect(stats.accepted + stats.rejected).toBe(list.length);
        for (const reason of Object.keys(stats.byReason)) expect(FRAME_REJECT_REASONS).toContain(reason);
      }),
    );
  });

  it('client: never throws; every frame is counted exactly once', () => {
    fc.assert(
      fc.property(frames, (list) => {
        const client = createTerminalClient({ type: 'mobile', send: () => true, call: async () => undefined });
        const id = client.subscribe({ terminal: 't' });
        client.handleEvent({ type: 'ready' });
        client.handleEvent({
          type: 'subscribed',
          streamId: id,
          terminal: 't',
          cols: 80,
          rows: 24,
          capabilities: { ackOutput: 1, outputPause: 1 },
        });
        for (const f of list) client.receive(f);
        const stats = client.stats();
        expect(stats.accepted + stats.rejected).toBe(list.length);
      }),
    );
  });
});
