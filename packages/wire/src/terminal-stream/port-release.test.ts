import { describe, expect, it } from 'vitest';
import type { TerminalPort } from './backend.ts';
import { encodeFrame } from './frame.ts';
import { createTerminalHost } from './host.ts';
import { encodeJsonPayload } from './json-payload.ts';
import { Opcode } from './opcodes.ts';

function harness() {
  const released: number[] = [];
  let opened = 0;
  const host = createTerminalHost({
    backend: {
      open: (): TerminalPort => {
        const id = ++opened;
        return {
          cols: 80,
          rows: 24,
          write: () => true,
          resize: () => {},
          serialize: () => ({ data: '' }),
          onOutput: () => () => {},
          release: () => {
            released.push(id);
          },
        };
      },
    },
    send: () => true,
    emit: () => {},
  });
  const frame = (opcode: number, streamId: number, body: unknown) =>
    host.receive(encodeFrame({ opcode, streamId, seq: 0, payload: encodeJsonPayload(body) }));
  return { host, frame, released };
}

describe('a port is released when its stream ends', () => {
  it('on Unsubscribe, once, and only that stream’s port', () => {
    const h = harness();
    h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't' });
    h.frame(Opcode.Subscribe, 0, { streamId: 2, terminal: 't' });
    h.host.receive(encodeFrame({ opcode: Opcode.Unsubscribe, streamId: 1, seq: 0, payload: new Uint8Array(0) }));
    h.host.receive(encodeFrame({ opcode: Opcode.Unsubscribe, streamId: 1, seq: 0, payload: new Uint8Array(0) }));
    expect(h.released).toEqual([1]);
  });

  it('when the connection closes, every open stream’s port', () => {
    const h = harness();
    h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't' });
    h.frame(Opcode.Subscribe, 0, { streamId: 2, terminal: 't' });
    h.host.close();
    h.host.close();
    expect(h.released.sort()).toEqual([1, 2]);
  });
});

describe('a port that ends ends its stream', () => {
  it('emits end for that stream, releases it, and later frames for it are ignored', () => {
    const events: Array<Record<string, unknown>> = [];
    let end: (() => void) | undefined;
    let released = 0;
    const host = createTerminalHost({
      backend: {
        open: (): TerminalPort => ({
          cols: 80,
          rows: 24,
          write: () => true,
          resize: () => {},
          serialize: () => ({ data: '' }),
          onOutput: () => () => {},
          onEnd: (listener) => {
            end = listener;
            return () => {
              end = undefined;
            };
          },
          release: () => {
            released += 1;
          },
        }),
      },
      send: () => true,
      emit: (e) => events.push(e),
    });
    host.receive(
      encodeFrame({
        opcode: Opcode.Subscribe,
        streamId: 0,
        seq: 0,
        payload: encodeJsonPayload({ streamId: 1, terminal: 't' }),
      }),
    );
    expect(end).toBeDefined();
    end?.();
    expect(events.at(-1)).toEqual({ type: 'end', streamId: 1 });
    expect(released).toBe(1);
    expect(end).toBeUndefined();
  });
});
