import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_LIMITS } from '../limits.ts';
import type { TerminalPort } from './backend.ts';
import { negotiate } from './capabilities.ts';
import { encodeFrame } from './frame.ts';
import { createTerminalHost } from './host.ts';
import { encodeJsonPayload } from './json-payload.ts';
import { Opcode } from './opcodes.ts';

type Event = Record<string, unknown>;

function harness() {
  const resizes: Array<[number, number]> = [];
  const opened: string[] = [];
  const events: Event[] = [];
  const port: TerminalPort = {
    cols: 80,
    rows: 24,
    write: () => true,
    resize: (cols, rows) => {
      resizes.push([cols, rows]);
    },
    serialize: () => ({ data: '' }),
    onOutput: () => () => {},
  };
  const host = createTerminalHost({
    backend: {
      open: (handle) => {
        opened.push(handle);
        return port;
      },
    },
    send: () => true,
    emit: (e) => events.push(e),
  });
  const claims = negotiate({ desktopViewportClaims: 1 }, { clientType: 'desktop', sourceRanges: false });
  const frame = (opcode: number, streamId: number, body: unknown) =>
    host.receive(encodeFrame({ opcode, streamId, seq: 0, payload: encodeJsonPayload(body) }, claims));
  return { host, frame, resizes, opened, events };
}

describe('terminal size limits at the wire boundary', () => {
  it('refuses a 65535×65535 Resize with invalid_argument, never resizes, and keeps the stream', () => {
    const h = harness();
    h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't' });
    h.frame(Opcode.Resize, 1, { cols: 65535, rows: 65535 });
    expect(h.resizes).toEqual([]);
    expect(h.events.at(-1)).toMatchObject({ type: 'error', streamId: 1 });
    expect(String(h.events.at(-1)?.message)).toMatch(/^invalid_argument: viewport /);
    h.frame(Opcode.Resize, 1, { cols: TERMINAL_LIMITS.maxCols, rows: TERMINAL_LIMITS.maxRows });
    expect(h.resizes).toEqual([[TERMINAL_LIMITS.maxCols, TERMINAL_LIMITS.maxRows]]);
    expect(h.host.stats().refusedViewports).toBe(1);
  });

  it('refuses ClaimViewport beyond the limits the same way', () => {
    const h = harness();
    h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't', capabilities: { desktopViewportClaims: 1 } });
    h.frame(Opcode.ClaimViewport, 1, { cols: 2000, rows: 2000 });
    expect(h.resizes).toEqual([]);
    expect(h.events.at(-1)).toMatchObject({ type: 'error', streamId: 1 });
  });

  it('refuses a Subscribe whose viewport is beyond the limits, before opening the terminal', () => {
    const h = harness();
    h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't', viewport: { cols: 2000, rows: 40 } });
    expect(h.opened).toEqual([]);
    expect(h.events).toContainEqual(expect.objectContaining({ type: 'error', streamId: 1 }));
    h.frame(Opcode.Subscribe, 0, { streamId: 2, terminal: 't', viewport: { cols: 120, rows: 40 } });
    expect(h.opened).toEqual(['t']);
  });

  it('applies a Resize exactly when both sides are integers within the limits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 70_000 }), fc.integer({ min: -5, max: 70_000 }), (cols, rows) => {
        const h = harness();
        h.frame(Opcode.Subscribe, 0, { streamId: 1, terminal: 't' });
        h.frame(Opcode.Resize, 1, { cols, rows });
        const inRange = cols >= 1 && cols <= TERMINAL_LIMITS.maxCols && rows >= 1 && rows <= TERMINAL_LIMITS.maxRows;
        expect(h.resizes).toEqual(inRange ? [[cols, rows]] : []);
      }),
    );
  });
});

describe('the client fits a local size into the limits', () => {
  it('sends Resize and ClaimViewport no larger than the limits, whole cells, at least 1×1', async () => {
    const sent: Array<{ opcode: number; body: unknown }> = [];
    const { createTerminalClient } = await import('./client.ts');
    const { decodeFrame } = await import('./frame.ts');
    const { decodeJsonPayload } = await import('./json-payload.ts');
    const client = createTerminalClient({
      type: 'desktop',
      send: (bytes) => {
        const f = decodeFrame(bytes);
        if (f.ok) {
          const body = decodeJsonPayload(f.value.payload);
          sent.push({ opcode: f.value.opcode, body: body.ok ? body.value : null });
        }
        return true;
      },
      call: async () => undefined,
    });
    const id = client.subscribe({ terminal: 't', viewport: { cols: 4000, rows: 0 } });
    client.handleEvent({ type: 'ready' });
    client.handleEvent({
      type: 'subscribed',
      streamId: id,
      terminal: 't',
      cols: 80,
      rows: 24,
      displayMode: 'x',
      seq: 0,
    });
    client.resize(id, 1500.7, 800);
    expect(sent.find((s) => s.opcode === Opcode.Subscribe)?.body).toMatchObject({
      viewport: { cols: TERMINAL_LIMITS.maxCols, rows: 1 },
    });
    expect(sent.filter((s) => s.opcode === Opcode.Resize).at(-1)?.body).toEqual({
      cols: TERMINAL_LIMITS.maxCols,
      rows: TERMINAL_LIMITS.maxRows,
    });
  });
});
