import { systemClock } from '../clock.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import { defaultRequest, type Grant, grantFromEcho } from './capabilities.ts';
import { type ClientStream, newClientStream } from './client-stream.ts';
import type { TerminalClient, TerminalClientOptions } from './client-types.ts';
import { AckBatcher } from './flow-control.ts';
import { decodeFrameView, encodeFrame, type FrameRejectReason, ReceiveCounter } from './frame.ts';
import { decodeJsonPayload, encodeJsonPayload } from './json-payload.ts';
import { Opcode, opcodeInfo } from './opcodes.ts';
import { classifyOutput } from './output.ts';
import { fitViewport, parseMetadata, parseOutputSpan, parseResized, parseTerminalEvent } from './payloads.ts';
import { applySnapshotFrame } from './snapshot-assembly.ts';
import { parseSnapshotMeta, type SnapshotMeta } from './snapshot-meta.ts';
import { decodeTextPayload, encodeTextPayload } from './text-codec.ts';

/**
 * Creates the client side of `terminal.multiplex`.
 *
 * @example
 * const client = createTerminalClient({ type: 'desktop', send: (b) => ws.send(b), call: (m, p) => rpc.stream(m, p) });
 * const id = client.subscribe({ terminal: 'pane-1', sink: { onOutput: (t) => xterm.write(t) } });
 * client.input(id, 'ls\r');
 */
export function createTerminalClient(options: TerminalClientOptions): TerminalClient {
  const clock = options.clock ?? systemClock;
  const policy = options.policy ?? (options.type === 'mobile' ? 'drop' : 'close');
  const maxSnapshotBytes = options.maxSnapshotBytes ?? TERMINAL_LIMITS.maxSnapshotBytes;
  const counter = new ReceiveCounter();
  const errors: string[] = [];
  const streams = new Map<number, ClientStream>();
  const unsubscribedUnknown = new Set<number>();
  let connection: 'idle' | 'connecting' | 'ready' | 'closed' = 'idle';
  let nextStreamId = 1;
  let nextRequestId = 1;
  const acks = new AckBatcher(clock, (streamId, bytes) => {
    const s = streams.get(streamId);
    if (!s || connection !== 'ready') return;
    const body = s.grant.has('ackOutputSourceRanges')
      ? { streamGeneration: s.generation, ackedEndByte: s.receivedBytes }
      : { bytes };
    send(Opcode.Ack, streamId, encodeJsonPayload(body), s.grant);
  });

  function send(opcode: number, streamId: number, payload: Uint8Array, grant?: Grant): boolean {
    return options.send(encodeFrame({ opcode, streamId, seq: 0, payload }, grant)) !== false;
  }

  function fail(message: string): void {
    errors.push(message);
  }

  function reject(reason: FrameRejectReason, detail?: string): void {
    counter.reject(reason, detail);
    if (policy === 'close') {
      fail(`stream_protocol_error: ${reason}${detail ? ` (${detail})` : ''}`);
      drop();
      connection = 'closed';
    }
  }

  function sendSubscribe(s: ClientStream): void {
    s.sent = true;
    const payload: Record<string, unknown> = {
      streamId: s.id,
      terminal: s.terminal,
      client: { id: options.clientId ?? 'orca-client', type: options.type },
      capabilities: defaultRequest(options.type),
    };
    if (s.viewport) payload.viewport = fitViewport(s.viewport.cols, s.viewport.rows);
    send(Opcode.Subscribe, 0, encodeJsonPayload(payload));
  }

  function connect(): void {
    connection = 'connecting';
    try {
      const pending = options.call('terminal.multiplex', {});
      pending?.then(undefined, (err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        fail(message);
        for (const s of streams.values()) s.sink.onError?.(message);
      });
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  }

  function requestResync(s: ClientStream): void {
    if (s.resyncPending) return;
    s.resyncPending = true;
    send(Opcode.SnapshotRequest, s.id, encodeJsonPayload({}));
  }

  function render(s: ClientStream, text: string, seq: number, rawLength: number, span: boolean) {
    const cls = classifyOutput(s.expected, seq, rawLength);
    if (s.resyncPending || !s.initialDone) return;
    if (cls === 'gap' || (cls === 'overlap' && span)) return requestResync(s);
    if (cls === 'duplicate') return;
    const start = seq - rawLength;
    const visible = cls === 'overlap' && s.expected !== undefined ? text.slice(s.expected - start) : text;
    s.expected = seq;
    s.sink.onOutput?.(visible);
  }

  function onSnapshotFrame(s: ClientStream, opcode: number, payload: Uint8Array, startMeta?: SnapshotMeta) {
    const step = applySnapshotFrame(s, opcode, payload, startMeta, maxSnapshotBytes);
    if (step.kind === 'oversize' && step.route === 'initial') fail(`initial snapshot over ${maxSnapshotBytes} bytes`);
    if (step.kind !== 'complete') return;
    const { snapshot } = step;
    s.sink.onSnapshot?.(snapshot);
    if (snapshot.route === 'initial' && !s.initialDone) {
      s.initialDone = true;
      s.sink.onSubscribed?.({
        streamId: s.id,
        cols: s.subscribed?.cols ?? snapshot.meta.cols,
        rows: s.subscribed?.rows ?? snapshot.meta.rows,
        capabilities: s.grant.capabilities,
      });
    }
  }

  function drop(): void {
    for (const s of streams.values()) acks.forget(s.id);
    streams.clear();
    unsubscribedUnknown.clear();
    connection = 'idle';
  }

  function active(streamId: number): ClientStream | undefined {
    const s = streams.get(streamId);
    return s && connection === 'ready' && s.subscribed ? s : undefined;
  }

  return {
    subscribe({ terminal, viewport, sink = {} }) {
      if (connection === 'closed') connection = 'idle';
      const s = newClientStream(nextStreamId++, terminal, viewport, sink);
      streams.set(s.id, s);
      if (connection === 'ready') sendSubscribe(s);
      else if (connection === 'idle') connect();
      return s.id;
    },
    unsubscribe(streamId) {
      const s = streams.get(streamId);
      if (!s) return;
      acks.forget(streamId);
      if (connection === 'ready' && s.sent) send(Opcode.Unsubscribe, streamId, new Uint8Array(0));
    },
    input(streamId, text) {
      const s = active(streamId);
      return s !== undefined && text.length > 0 && send(Opcode.Input, streamId, encodeTextPayload(text));
    },
    resize(streamId, cols, rows) {
      const s = active(streamId);
      return s !== undefined && send(Opcode.Resize, streamId, encodeJsonPayload(fitViewport(cols, rows)));
    },
    claimViewport(streamId, cols, rows) {
      const s = active(streamId);
      if (!s) return false;
      const size = fitViewport(cols, rows);
      if (s.grant.has('desktopViewportClaims') && options.type === 'desktop') {
        send(Opcode.ClaimViewport, streamId, encodeJsonPayload(size), s.grant);
      }
      return send(Opcode.Resize, streamId, encodeJsonPayload(size));
    },
    setOutputPaused(streamId, paused) {
      const s = active(streamId);
      if (!s?.grant.has('outputPause')) return false;
      if (s.paused === paused) return true;
      s.paused = paused;
      if (paused) acks.flush(streamId);
      send(Opcode.SetOutputPaused, streamId, encodeJsonPayload({ paused }), s.grant);
      return true;
    },
    requestSnapshot(streamId, opts = {}) {
      const s = active(streamId);
      if (!s) return false;
      s.awaitingRequests++;
      const body: Record<string, unknown> = { requestId: nextRequestId++ };
      if (opts.scrollbackRows !== undefined) body.scrollbackRows = opts.scrollbackRows;
      return send(Opcode.SnapshotRequest, streamId, encodeJsonPayload(body));
    },
    receive(bytes) {
      if (connection === 'closed') return;
      // Why: every payload is decoded to a string or JSON right here and never kept, so a view
      // saves the per-frame copy `decodeFrame` makes for callers that hold on to payloads.
      const decoded = decodeFrameView(bytes);
      if (!decoded.ok) return reject(decoded.reason, decoded.detail);
      const { opcode, streamId, seq, payload } = decoded.value;
      const info = opcodeInfo(opcode);
      if (!info) return reject('unknown-opcode', String(opcode));
      if (info.direction !== 'host-to-client') return reject('wrong-direction', info.name);
      if (streamId === 0) return reject('bad-stream', info.name);
      const s = streams.get(streamId);
      if (!s?.subscribed) {
        counter.reject('unknown-stream');
        if ((opcode === Opcode.Output || opcode === Opcode.OutputSpan) && !unsubscribedUnknown.has(streamId)) {
          unsubscribedUnknown.add(streamId);
          send(Opcode.Unsubscribe, streamId, new Uint8Array(0));
        }
        return;
      }
      if (info.gate && !s.grant.has(info.gate)) return counter.reject('not-negotiated', info.name);
      let startMeta: SnapshotMeta | undefined;
      if (opcode === Opcode.SnapshotStart) {
        const json = decodeJsonPayload(payload);
        const meta = json.ok ? parseSnapshotMeta(json.value) : json;
        if (!meta.ok) return reject(meta.reason, meta.detail);
        startMeta = meta.value;
      }
      counter.accept();
      switch (opcode) {
        case Opcode.Output: {
          if (s.grant.has('ackOutput')) {
            s.receivedBytes += payload.byteLength;
            acks.record(s.id, payload.byteLength);
          }
          const text = decodeTextPayload(payload);
          return render(s, text, seq, text.length, false);
        }
        case Opcode.OutputSpan: {
          const json = decodeJsonPayload(payload);
          const span = json.ok ? parseOutputSpan(json.value) : json;
          if (!span.ok) return requestResync(s);
          return render(s, span.value.data, seq, span.value.rawLength, true);
        }
        case Opcode.SnapshotStart:
        case Opcode.SnapshotChunk:
        case Opcode.SnapshotEnd:
          return onSnapshotFrame(s, opcode, payload, startMeta);
        case Opcode.Error:
          return s.sink.onError?.(decodeTextPayload(payload));
        case Opcode.WriteUnavailable:
          return s.sink.onWriteUnavailable?.();
        case Opcode.Resized:
        case Opcode.Metadata: {
          const json = decodeJsonPayload(payload);
          if (!json.ok) return;
          if (opcode === Opcode.Metadata) {
            const m = parseMetadata(json.value);
            if (m.ok) s.sink.onMetadata?.(m.value);
            return;
          }
          const r = parseResized(json.value);
          if (r.ok)
            s.sink.onResized?.({
              cols: r.value.cols,
              rows: r.value.rows,
              displayMode: r.value.displayMode,
              reason: r.value.reason,
            });
          return;
        }
      }
    },
    handleEvent(raw) {
      const parsed = parseTerminalEvent(raw);
      if (!parsed.ok) return;
      const event = parsed.value;
      switch (event.type) {
        case 'ready':
          connection = 'ready';
          for (const s of streams.values()) if (!s.sent) sendSubscribe(s);
          return;
        case 'subscribed': {
          const s = streams.get(event.streamId);
          if (!s) return;
          s.grant = grantFromEcho(raw);
          s.generation = event.streamGeneration;
          s.subscribed = { cols: event.cols, rows: event.rows };
          return;
        }
        case 'end': {
          const s = streams.get(event.streamId);
          if (!s) return;
          if (s.retryOnEnd) {
            // Why: the host was at its stream limit; retry after `end` with a doubling backoff.
            s.retryOnEnd = false;
            s.sent = false;
            const delay = s.retryDelayMs;
            s.retryDelayMs = Math.min(TERMINAL_LIMITS.subscribeRetryMaxMs, delay * 2);
            clock.setTimeout(() => {
              if (streams.get(s.id) === s && connection === 'ready' && !s.sent) sendSubscribe(s);
            }, delay);
            return;
          }
          acks.forget(s.id);
          streams.delete(s.id);
          s.sink.onEnd?.();
          return;
        }
        case 'error': {
          const s = event.streamId === undefined ? undefined : streams.get(event.streamId);
          if (s && event.message === 'terminal_stream_limit_exceeded' && !s.subscribed) s.retryOnEnd = true;
          else if (s) s.sink.onError?.(event.message);
          else fail(event.message);
          return;
        }
      }
    },
    drop,
    stats: () => ({ ...counter.snapshot(), errors: [...errors] }),
  };
}
