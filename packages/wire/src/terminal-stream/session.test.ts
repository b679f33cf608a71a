import { describe, expect, it } from 'vitest';
import type { ReceivePolicy } from '../receive-policy.ts';
import type { TerminalBackend, TerminalPort } from './backend.ts';
import { createTerminalClient } from './client.ts';
import type { TerminalStreamSink } from './client-types.ts';
import { decodeFrame, encodeFrame } from './frame.ts';
import { createTerminalHost, type TerminalHost } from './host.ts';
import { encodeJsonPayload } from './json-payload.ts';
import { OPCODE_INFO, Opcode } from './opcodes.ts';
import { encodeTextPayload } from './text-codec.ts';

class FakePort implements TerminalPort {
  cols = 120;
  rows = 40;
  screen = '';
  writes: string[] = [];
  resizes: Array<[number, number]> = [];
  acceptWrites = true;
  sourceRanges: boolean;
  #listeners = new Set<(d: string) => void>();
  constructor(sourceRanges = false) {
    this.sourceRanges = sourceRanges;
  }
  write(data: string) {
    this.writes.push(data);
    return this.acceptWrites;
  }
  resize(cols: number, rows: number) {
    this.resizes.push([cols, rows]);
  }
  serialize() {
    return { data: this.screen, cols: this.cols, rows: this.rows };
  }
  onOutput(l: (d: string) => void) {
    this.#listeners.add(l);
    return () => this.#listeners.delete(l);
  }
  emit(data: string) {
    this.screen += data;
    for (const l of this.#listeners) l(data);
  }
}

function setup(
  opts: {
    hostPolicy?: ReceivePolicy;
    clientType?: 'desktop' | 'mobile';
    ranges?: boolean;
    /** Capabilities the (simulated older) host leaves out of its echo. */
    stripEcho?: string[];
  } = {},
) {
  const port = new FakePort(opts.ranges);
  const backend: TerminalBackend = { open: (h) => (h === 'pane' ? port : null) };
  const toHost: string[] = [];
  const toClient: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  let host: TerminalHost | undefined;
  const name = (b: Uint8Array) => {
    const op = b[2] ?? 0;
    return OPCODE_INFO[op as keyof typeof OPCODE_INFO]?.name ?? `#${op}`;
  };
  const client = createTerminalClient({
    type: opts.clientType ?? 'desktop',
    send: (b) => {
      toHost.push(name(b));
      host?.receive(b);
      return true;
    },
    call: async () => {
      host = createTerminalHost({
        backend,
        policy: opts.hostPolicy,
        send: (b) => {
          toClient.push(name(b));
          client.receive(b);
          return true;
        },
        emit: (e) => {
          const caps = e.capabilities as Record<string, unknown> | undefined;
          if (caps && opts.stripEcho) for (const k of opts.stripEcho) delete caps[k];
          events.push(e);
          client.handleEvent(e);
        },
      });
      return undefined;
    },
  });
  const rendered: string[] = [];
  const snapshots: unknown[] = [];
  let subscribedWith: readonly string[] | undefined;
  const sink: TerminalStreamSink = {
    onOutput: (t) => rendered.push(t),
    onSnapshot: (s) => snapshots.push({ route: s.route, data: s.data, requestId: s.meta.requestId }),
    onSubscribed: (i) => {
      subscribedWith = i.capabilities;
    },
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return {
    port,
    client,
    sink,
    toHost,
    toClient,
    events,
    rendered,
    snapshots,
    host: () => host,
    subscribed: () => subscribedWith,
    settle,
  };
}

describe('terminal.multiplex session', () => {
  it('subscribe → subscribed → initial snapshot (then onSubscribed) → input → output', async () => {
    const t = setup({ ranges: true });
    t.port.screen = 'prompt$ ';
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    expect(t.events.map((e) => e.type)).toEqual(['ready', 'subscribed']);
    expect(t.events[1]).toMatchObject({
      streamId: id,
      cols: 120,
      rows: 40,
      capabilities: {
        ackOutput: 1,
        ackOutputSourceRanges: 1,
        desktopViewportClaims: 1,
        outputPause: 1,
        writeUnavailable: 1,
      },
      streamGeneration: 'g1',
    });
    expect(t.subscribed()).toEqual([
      'ackOutput',
      'ackOutputSourceRanges',
      'desktopViewportClaims',
      'outputPause',
      'writeUnavailable',
    ]);
    expect(t.snapshots).toEqual([{ route: 'initial', data: 'prompt$ ', requestId: undefined }]);
    expect(t.client.input(id, 'ls\r')).toBe(true);
    expect(t.port.writes).toEqual(['ls\r']);
    t.port.emit('file\r\n');
    expect(t.rendered).toEqual(['file\r\n']);
    await t.settle();
    expect(t.toHost).toEqual(['Subscribe', 'Input', 'Ack']);
    expect(t.toClient).toEqual(['SnapshotStart', 'SnapshotChunk', 'SnapshotEnd', 'Output']);
  });

  it('empty snapshot data publishes Start, End', async () => {
    const t = setup();
    t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    expect(t.toClient).toEqual(['SnapshotStart', 'SnapshotEnd']);
  });

  it('unknown handle → terminal_handle_stale, no subscribed', async () => {
    const t = setup();
    const errors: string[] = [];
    t.client.subscribe({ terminal: 'gone', sink: { onError: (m) => errors.push(m) } });
    await t.settle();
    expect(t.events).toEqual([{ type: 'ready' }, { type: 'error', streamId: 1, message: 'terminal_handle_stale' }]);
    expect(errors).toEqual(['terminal_handle_stale']);
  });

  it('tagged SnapshotRequest routes as request with scrollbackRows', async () => {
    const t = setup();
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    t.port.emit('abc');
    t.client.requestSnapshot(id, { scrollbackRows: 200 });
    expect(t.snapshots.at(-1)).toEqual({ route: 'request', data: 'abc', requestId: 1 });
  });

  it('refused input → WriteUnavailable with the grant', async () => {
    const t = setup();
    let refused = 0;
    const id = t.client.subscribe({ terminal: 'pane', sink: { ...t.sink, onWriteUnavailable: () => refused++ } });
    await t.settle();
    t.port.acceptWrites = false;
    t.client.input(id, 'x');
    expect(t.host()?.stats().refusedInputs).toBe(1);
    expect(t.toClient.at(-1)).toBe('WriteUnavailable');
    expect(refused).toBe(1);
  });

  it('refused input is counted only without writeUnavailable', async () => {
    const port = new FakePort();
    port.acceptWrites = false;
    const sent: number[] = [];
    const host = createTerminalHost({
      backend: { open: () => port },
      send: (b) => {
        sent.push(b[2] ?? 0);
        return true;
      },
      emit: () => {},
    });
    host.receive(
      encodeFrame({
        opcode: Opcode.Subscribe,
        streamId: 0,
        seq: 0,
        payload: encodeJsonPayload({ streamId: 1, terminal: 'p' }),
      }),
    );
    host.receive(encodeFrame({ opcode: Opcode.Input, streamId: 1, seq: 0, payload: encodeTextPayload('x') }));
    expect(host.stats().refusedInputs).toBe(1);
    expect(sent).toEqual([Opcode.SnapshotStart, Opcode.SnapshotEnd]);
  });

  it('pause: one frame per state change, host discards output while paused, the gap resyncs; no gated opcode leaves ungranted', async () => {
    const t = setup();
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    expect(t.client.setOutputPaused(id, true)).toBe(true);
    expect(t.client.setOutputPaused(id, true)).toBe(true);
    t.port.emit('hidden');
    expect(t.rendered).toEqual([]);
    expect(t.client.setOutputPaused(id, false)).toBe(true);
    t.port.emit('shown');
    expect(t.rendered).toEqual([]);
    expect(t.snapshots.at(-1)).toEqual({ route: 'recovery', data: 'hiddenshown', requestId: undefined });
    t.port.emit('!');
    expect(t.rendered).toEqual(['!']);
    expect(t.toHost).toEqual(['Subscribe', 'SetOutputPaused', 'SetOutputPaused', 'SnapshotRequest']);
  });

  it('a host ignores SetOutputPaused it did not grant (counted); a client ignores an ungranted WriteUnavailable', async () => {
    const port = new FakePort();
    const host = createTerminalHost({ backend: { open: () => port }, send: () => true, emit: () => {} });
    host.receive(
      encodeFrame({
        opcode: Opcode.Subscribe,
        streamId: 0,
        seq: 0,
        payload: encodeJsonPayload({ streamId: 1, terminal: 'p' }),
      }),
    );
    const granted = (await import('./capabilities.ts')).negotiate(
      { outputPause: 1, writeUnavailable: 1 },
      { clientType: 'desktop', sourceRanges: false },
    );
    host.receive(
      encodeFrame(
        { opcode: Opcode.SetOutputPaused, streamId: 1, seq: 0, payload: encodeJsonPayload({ paused: true }) },
        granted,
      ),
    );
    expect(host.stats().byReason).toEqual({ 'not-negotiated': 1 });
    const t = setup({ stripEcho: ['writeUnavailable'] });
    let refused = 0;
    const id = t.client.subscribe({ terminal: 'pane', sink: { ...t.sink, onWriteUnavailable: () => refused++ } });
    await t.settle();
    t.client.receive(
      encodeFrame({ opcode: Opcode.WriteUnavailable, streamId: id, seq: 9, payload: new Uint8Array() }, granted),
    );
    expect(refused).toBe(0);
    expect(t.client.stats().byReason).toEqual({ 'not-negotiated': 1 });
  });

  it('setOutputPaused returns false and sends nothing without the grant', async () => {
    const t = setup({ stripEcho: ['outputPause'] });
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    expect(t.client.setOutputPaused(id, true)).toBe(false);
    expect(t.toHost).toEqual(['Subscribe']);
  });

  it('desktop claimViewport sends ClaimViewport then Resize; mobile never requests claims and only resizes', async () => {
    const d = setup();
    const id = d.client.subscribe({ terminal: 'pane', sink: d.sink });
    await d.settle();
    d.client.claimViewport(id, 100, 30);
    d.client.resize(id, 90, 20);
    expect(d.toHost.slice(1)).toEqual(['ClaimViewport', 'Resize', 'Resize']);
    expect(d.port.resizes).toEqual([[100, 30]]);
    const m = setup({ clientType: 'mobile' });
    const mid = m.client.subscribe({ terminal: 'pane', sink: m.sink });
    await m.settle();
    expect(m.subscribed()).toEqual(['ackOutput', 'outputPause', 'writeUnavailable']);
    m.client.claimViewport(mid, 50, 20);
    expect(m.toHost.slice(1)).toEqual(['Resize']);
    expect(m.port.resizes).toEqual([[50, 20]]);
  });

  it('client sends Unsubscribe once per unknown stream id carrying output', async () => {
    const t = setup();
    t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    const stray = encodeFrame({ opcode: Opcode.Output, streamId: 77, seq: 1, payload: encodeTextPayload('x') });
    t.client.receive(stray);
    t.client.receive(stray);
    expect(t.toHost.filter((n) => n === 'Unsubscribe')).toEqual(['Unsubscribe']);
    expect(t.client.stats().byReason['unknown-stream']).toBe(2);
  });

  it('a gap requests an untagged resync, output is discarded until the recovery snapshot lands', async () => {
    const t = setup();
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    t.client.receive(
      encodeFrame({ opcode: Opcode.Output, streamId: id, seq: 10, payload: encodeTextPayload('later') }),
    );
    expect(t.rendered).toEqual([]);
    expect(t.toHost.at(-1)).toBe('SnapshotRequest');
    expect(t.snapshots.at(-1)).toMatchObject({ route: 'recovery' });
  });

  it('duplicate output is dropped and an overlap renders only the suffix', async () => {
    const t = setup();
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    const out = (seq: number, text: string) =>
      t.client.receive(encodeFrame({ opcode: Opcode.Output, streamId: id, seq, payload: encodeTextPayload(text) }));
    out(3, 'abc');
    out(3, 'abc');
    out(2, 'bc');
    out(5, 'cde');
    expect(t.rendered).toEqual(['abc', 'de']);
  });

  it('Ack credits only in the granted mode; wrong-mode or stale acks are ignored and counted', async () => {
    const t = setup({ ranges: true });
    const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    const host = t.host();
    const ackGrant = { opcode: Opcode.Ack, streamId: id, seq: 0 };
    const grant = (await import('./capabilities.ts')).negotiate(
      { ackOutput: 1 },
      { clientType: 'desktop', sourceRanges: false },
    );
    host?.receive(encodeFrame({ ...ackGrant, payload: encodeJsonPayload({ bytes: 5 }) }, grant));
    host?.receive(
      encodeFrame({ ...ackGrant, payload: encodeJsonPayload({ streamGeneration: 'old', ackedEndByte: 5 }) }, grant),
    );
    host?.receive(
      encodeFrame(
        { ...ackGrant, payload: encodeJsonPayload({ streamGeneration: 'g1', ackedEndByte: 5, x: 1 }) },
        grant,
      ),
    );
    expect(host?.stats().ignoredAcks).toBe(3);
    expect(host?.stats().rejected).toBe(0);
  });

  for (const policy of ['drop', 'close'] as const) {
    it(`host policy '${policy}': wrong direction, bad stream, unknown opcode`, async () => {
      const t = setup({ hostPolicy: policy });
      const id = t.client.subscribe({ terminal: 'pane', sink: t.sink });
      await t.settle();
      const host = t.host();
      host?.receive(encodeFrame({ opcode: Opcode.Output, streamId: id, seq: 0, payload: new Uint8Array() }));
      host?.receive(encodeFrame({ opcode: Opcode.Input, streamId: 0, seq: 0, payload: encodeTextPayload('x') }));
      const unknown = encodeFrame({ opcode: Opcode.Input, streamId: id, seq: 0, payload: new Uint8Array() });
      unknown[2] = 99;
      host?.receive(unknown);
      host?.receive(encodeFrame({ opcode: Opcode.Input, streamId: id, seq: 0, payload: encodeTextPayload('after') }));
      if (policy === 'drop') {
        expect(host?.stats()).toMatchObject({
          rejected: 3,
          byReason: { 'wrong-direction': 1, 'bad-stream': 1, 'unknown-opcode': 1 },
          unknownOpcodes: { 99: 1 },
        });
        expect(t.port.writes).toEqual(['after']);
      } else {
        expect(host?.stats()).toMatchObject({ rejected: 1, byReason: { 'wrong-direction': 1 } });
        expect(t.events.at(-1)).toEqual({ type: 'error', message: 'stream_protocol_error: wrong-direction' });
        expect(t.port.writes).toEqual([]);
      }
    });

    it(`client policy '${policy}': undecodable frame`, async () => {
      const t = setup();
      const client = createTerminalClient({ type: 'desktop', policy, send: () => true, call: async () => undefined });
      client.receive(Uint8Array.of(1, 2, 3));
      expect(client.stats()).toMatchObject({ rejected: 1, byReason: { short: 1 } });
      expect(client.stats().errors).toEqual(policy === 'close' ? ['stream_protocol_error: short'] : []);
      expect(t.toHost).toEqual([]);
    });
  }

  it('invalid Subscribe → error event with the first issue when a streamId is readable, no stream', async () => {
    const t = setup();
    t.client.subscribe({ terminal: 'pane', sink: t.sink });
    await t.settle();
    const host = t.host();
    host?.receive(
      encodeFrame({
        opcode: Opcode.Subscribe,
        streamId: 0,
        seq: 0,
        payload: encodeJsonPayload({ streamId: 5, terminal: '' }),
      }),
    );
    expect(t.events.at(-1)).toEqual({
      type: 'error',
      streamId: 5,
      message: 'invalid_argument: terminal: Too small: expected string to have >=1 characters',
    });
    host?.receive(
      encodeFrame({ opcode: Opcode.Subscribe, streamId: 0, seq: 0, payload: encodeJsonPayload({ terminal: 'pane' }) }),
    );
    expect(t.events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('decoded frames carry host cursors for non-output frames and UTF-16 high-water for Output', async () => {
    const t = setup();
    const frames: Array<{ opcode: number; seq: number }> = [];
    const port = t.port;
    const host = createTerminalHost({
      backend: { open: () => port },
      send: (b) => {
        const d = decodeFrame(b);
        if (d.ok) frames.push({ opcode: d.value.opcode, seq: d.value.seq });
        return true;
      },
      emit: () => {},
    });
    host.receive(
      encodeFrame({
        opcode: Opcode.Subscribe,
        streamId: 0,
        seq: 0,
        payload: encodeJsonPayload({ streamId: 1, terminal: 'p' }),
      }),
    );
    port.emit('😀ab');
    expect(frames).toEqual([
      { opcode: Opcode.SnapshotStart, seq: 1 },
      { opcode: Opcode.SnapshotEnd, seq: 2 },
      { opcode: Opcode.Output, seq: 4 },
    ]);
  });

  it('surfaces Resized and Metadata frames to the sink; malformed ones are ignored', async () => {
    const t = setup();
    const seen: unknown[] = [];
    const id = t.client.subscribe({
      terminal: 'pane',
      sink: { ...t.sink, onResized: (r) => seen.push(r), onMetadata: (m) => seen.push(m) },
    });
    await t.settle();
    const frame = (opcode: number, value: unknown) =>
      t.client.receive(encodeFrame({ opcode, streamId: id, seq: 50, payload: encodeJsonPayload(value) }));
    frame(Opcode.Resized, { cols: 100, rows: 30, displayMode: 'fit', reason: 'driver' });
    frame(Opcode.Metadata, { cwd: '/tmp' });
    frame(Opcode.Metadata, { cwd: 5 });
    expect(seen).toEqual([{ cols: 100, rows: 30, displayMode: 'fit', reason: 'driver' }, { cwd: '/tmp' }]);
  });
});
