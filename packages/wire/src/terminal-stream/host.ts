import type { WireClock } from '../clock.ts';
import { SNAPSHOT_BUDGETS, TERMINAL_LIMITS } from '../limits.ts';
import type { ReceivePolicy } from '../receive-policy.ts';
import type { SerializedScreen, TerminalBackend, TerminalPort } from './backend.ts';
import { type ClientType, echoOf, type Grant, negotiate } from './capabilities.ts';
import { FlowControl } from './flow-control.ts';
import {
  createFrameDecoder,
  encodeFrame,
  encodeTextFrame,
  type FrameDecoder,
  type FrameRejectReason,
  ReceiveCounter,
  type ReceiveStats,
} from './frame.ts';
import { decodeJsonPayload, encodeJsonPayload } from './json-payload.ts';
import { Opcode, opcodeInfo } from './opcodes.ts';
import { splitOutput } from './output.ts';
import {
  parseAck,
  parseSetOutputPaused,
  parseSnapshotRequest,
  parseSubscribe,
  parseViewport,
  readableStreamId,
} from './payloads.ts';
import { buildSnapshotMeta } from './snapshot-meta.ts';
import { decodeTextPayload } from './text-codec.ts';

/** Options of {@link createTerminalHost}. */
export interface TerminalHostOptions {
  backend: TerminalBackend;
  /** Sends one binary frame; `false` = refused, which closes the whole multiplex. */
  send(bytes: Uint8Array): boolean | undefined;
  /** Emits one session event on the `terminal.multiplex` stream. */
  emit(event: Record<string, unknown>): void;
  /** Default `'drop'`. */
  policy?: ReceivePolicy;
  clock?: WireClock;
  decoder?: FrameDecoder;
}

/** The host side of one `terminal.multiplex` connection. */
export interface TerminalHost {
  receive(bytes: Uint8Array): void;
  close(): void;
  stats(): ReceiveStats & { refusedInputs: number; ignoredAcks: number; refusedViewports: number };
}

interface HostStream {
  id: number;
  port: TerminalPort;
  grant: Grant;
  clientType: ClientType;
  outputSeq: number;
  generation: string | undefined;
  lastAckedEnd: number;
  paused: boolean;
  stopOutput: () => void;
}

/**
 * Creates the host side of a multiplex connection and emits `{type: 'ready'}`.
 *
 * @example
 * const host = createTerminalHost({ backend, send: (b) => ws.send(b), emit: (e) => rpcStream.push(e) });
 * ws.on('message', (b) => host.receive(b));
 */
export function createTerminalHost(options: TerminalHostOptions): TerminalHost {
  const policy = options.policy ?? 'drop';
  const decoder = options.decoder ?? createFrameDecoder();
  const counter = new ReceiveCounter();
  const streams = new Map<number, HostStream>();
  const flow = new FlowControl<Uint8Array>();
  let closed = false;
  let cursor = 0;
  let generationCounter = 0;
  let refusedInputs = 0;
  let ignoredAcks = 0;
  let refusedViewports = 0;

  function close(): void {
    if (closed) return;
    closed = true;
    for (const s of streams.values()) {
      s.stopOutput();
      releasePort(s);
    }
    streams.clear();
  }

  function send(bytes: Uint8Array): boolean {
    if (closed) return false;
    if (options.send(bytes) === false) {
      // Why: a refused send means the transport is gone or wedged; partial streams would desync.
      close();
      return false;
    }
    return true;
  }

  function frame(opcode: number, streamId: number, seq: number, payload: Uint8Array, grant?: Grant): boolean {
    return send(encodeFrame({ opcode, streamId, seq, payload }, grant));
  }

  function reject(reason: FrameRejectReason, detail?: string): void {
    counter.reject(reason, detail);
    if (policy === 'close') {
      options.emit({ type: 'error', message: `stream_protocol_error: ${reason}` });
      close();
    }
  }

  function publishSnapshot(
    stream: HostStream,
    request: { scrollbackRows: number; maxBytes: number; requestId?: number; reason?: string },
  ): boolean {
    let screen: SerializedScreen | null = null;
    let budgetRows = request.scrollbackRows;
    if (request.reason === 'initial' && stream.clientType === 'mobile') {
      for (const rows of SNAPSHOT_BUDGETS.mobileInitialScrollbackRows) {
        budgetRows = rows;
        screen = stream.port.serialize({ scrollbackRows: rows, maxBytes: request.maxBytes });
        if (!screen || new TextEncoder().encode(screen.data).byteLength <= request.maxBytes) break;
      }
    } else {
      screen = stream.port.serialize({ scrollbackRows: budgetRows, maxBytes: request.maxBytes });
    }
    const meta = buildSnapshotMeta({
      kind: 'scrollback',
      cols: screen?.cols ?? stream.port.cols,
      rows: screen?.rows ?? stream.port.rows,
      truncated: screen?.truncated,
      truncatedByByteBudget: screen?.truncatedByByteBudget,
      requestId: request.requestId,
      reason: request.reason === 'initial' ? undefined : request.reason,
      unavailable: screen ? undefined : 'no-serializable-buffer',
      seq: stream.outputSeq,
      cwd: screen?.cwd,
    });
    if (!frame(Opcode.SnapshotStart, stream.id, ++cursor, encodeJsonPayload(meta))) return false;
    const data = screen?.data ?? '';
    if (data.length > 0) {
      for (const chunk of splitOutput(data, data.length)) {
        if (!send(encodeTextFrame(Opcode.SnapshotChunk, stream.id, ++cursor, chunk.text))) return false;
      }
    }
    return frame(Opcode.SnapshotEnd, stream.id, ++cursor, new Uint8Array(0));
  }

  function onOutput(stream: HostStream, text: string): void {
    if (closed || streams.get(stream.id) !== stream || text.length === 0) return;
    stream.outputSeq += text.length;
    // Why: paused output is discarded but still advances seq, so the client sees a gap and resyncs.
    if (stream.paused) return;
    for (const chunk of splitOutput(text, stream.outputSeq)) {
      const bytes = encodeTextFrame(Opcode.Output, stream.id, chunk.seq, chunk.text);
      const payloadBytes = bytes.byteLength - TERMINAL_LIMITS.headerBytes;
      if (!stream.grant.has('ackOutput')) {
        if (!send(bytes)) return;
        continue;
      }
      const decision = flow.offer(stream.id, payloadBytes, bytes);
      if (decision === 'send' && !send(bytes)) return;
      if (decision === 'overflow') {
        // Why: the client cannot catch up from a dropped queue; a recovery snapshot resyncs it.
        publishSnapshot(stream, {
          scrollbackRows: 0,
          maxBytes: SNAPSHOT_BUDGETS.requestedMaxBytes,
          reason: 'ack-pending-overflow',
        });
        return;
      }
    }
  }

  function subscribe(json: unknown): void {
    const parsed = parseSubscribe(json);
    if (!parsed.ok) {
      const streamId = readableStreamId(json);
      if (streamId !== undefined)
        options.emit({ type: 'error', streamId, message: `invalid_argument: ${parsed.detail ?? 'invalid'}` });
      reject('bad-payload', parsed.detail);
      return;
    }
    counter.accept();
    const req = parsed.value;
    if (streams.has(req.streamId)) {
      options.emit({ type: 'error', streamId: req.streamId, message: 'invalid_argument: streamId already subscribed' });
      return;
    }
    if (streams.size >= TERMINAL_LIMITS.maxActiveStreams) {
      options.emit({ type: 'error', streamId: req.streamId, message: 'terminal_stream_limit_exceeded' });
      options.emit({ type: 'end', streamId: req.streamId });
      return;
    }
    const port = options.backend.open(req.terminal);
    if (!port) {
      options.emit({ type: 'error', streamId: req.streamId, message: 'terminal_handle_stale' });
      return;
    }
    const clientType = req.client?.type ?? 'desktop';
    const grant = negotiate(req.capabilities ?? {}, { clientType, sourceRanges: port.sourceRanges === true });
    const generation = grant.has('ackOutputSourceRanges') ? `g${++generationCounter}` : undefined;
    const stream: HostStream = {
      id: req.streamId,
      port,
      grant,
      clientType,
      outputSeq: 0,
      generation,
      lastAckedEnd: 0,
      paused: false,
      stopOutput: () => {},
    };
    streams.set(stream.id, stream);
    if (grant.has('ackOutput')) flow.addStream(stream.id);
    const echo = echoOf(grant);
    options.emit({
      type: 'subscribed',
      streamId: stream.id,
      terminal: req.terminal,
      cols: port.cols,
      rows: port.rows,
      displayMode: 'fit',
      seq: 0,
      ...(echo ? { capabilities: echo } : {}),
      ...(generation ? { streamGeneration: generation } : {}),
      truncated: false,
    });
    const initialBudget =
      clientType === 'mobile' ? SNAPSHOT_BUDGETS.mobileInitialMaxBytes : SNAPSHOT_BUDGETS.requestedMaxBytes;
    if (
      !publishSnapshot(stream, {
        scrollbackRows: SNAPSHOT_BUDGETS.desktopInitialScrollbackRows,
        maxBytes: initialBudget,
        reason: 'initial',
      })
    ) {
      return;
    }
    const stopOutput = port.onOutput((data) => onOutput(stream, data));
    // Why: a terminal whose process exited has nothing more to say; its stream ends (`end` event).
    const stopEnd = port.onEnd?.(() => {
      if (!closed && streams.get(stream.id) === stream) unsubscribe(stream);
    });
    stream.stopOutput = () => {
      stopOutput();
      stopEnd?.();
    };
  }

  function releasePort(stream: HostStream): void {
    try {
      stream.port.release?.();
    } catch {
      // Why: a backend's release must not take the connection down with it.
    }
  }

  function unsubscribe(stream: HostStream): void {
    stream.stopOutput();
    releasePort(stream);
    streams.delete(stream.id);
    flow.removeStream(stream.id);
    options.emit({ type: 'end', streamId: stream.id });
  }

  function ack(stream: HostStream, json: unknown): void {
    const ranges = stream.grant.has('ackOutputSourceRanges');
    const parsed = parseAck(json, ranges ? 'ranges' : 'bytes');
    let credit = 0;
    const value = parsed.ok ? parsed.value : undefined;
    if (value && 'bytes' in value) credit = value.bytes;
    else if (value && value.streamGeneration === stream.generation) {
      credit = value.ackedEndByte - stream.lastAckedEnd;
      if (credit > 0) stream.lastAckedEnd = value.ackedEndByte;
    }
    if (!parsed.ok || credit <= 0) {
      // Why: a wrong-mode, stale or extra-key Ack is ignored without credit or error (counted).
      ignoredAcks++;
      return;
    }
    for (const { item } of flow.credit(stream.id, credit)) if (!send(item)) return;
  }

  // Why: an out-of-range size is the client's mistake, not a protocol break; the connection stays.
  function refuseViewport(stream: HostStream, detail: string | undefined): void {
    refusedViewports++;
    options.emit({ type: 'error', streamId: stream.id, message: `invalid_argument: viewport ${detail ?? 'invalid'}` });
  }

  function dispatch(stream: HostStream, opcode: number, payload: Uint8Array) {
    const kind = opcodeInfo(opcode)?.payload;
    let json: unknown;
    if (kind === 'json') {
      const decoded = decodeJsonPayload(payload);
      if (!decoded.ok) return reject(decoded.reason);
      json = decoded.value;
    }
    counter.accept();
    switch (opcode) {
      case Opcode.Input: {
        const text = decodeTextPayload(payload);
        if (text.length > 0 && !stream.port.write(text)) {
          refusedInputs++;
          if (stream.grant.has('writeUnavailable')) {
            frame(Opcode.WriteUnavailable, stream.id, ++cursor, new Uint8Array(0), stream.grant);
          }
        }
        return;
      }
      case Opcode.Resize: {
        const v = parseViewport(json);
        if (!v.ok) return refuseViewport(stream, v.detail);
        if (!stream.grant.has('desktopViewportClaims')) stream.port.resize(v.value.cols, v.value.rows);
        return;
      }
      case Opcode.ClaimViewport: {
        const v = parseViewport(json);
        if (!v.ok) return refuseViewport(stream, v.detail);
        stream.port.resize(v.value.cols, v.value.rows);
        return;
      }
      case Opcode.Unsubscribe:
        return unsubscribe(stream);
      case Opcode.SnapshotRequest: {
        const req = parseSnapshotRequest(json);
        publishSnapshot(stream, {
          scrollbackRows: Math.max(0, Math.floor(req.scrollbackRows ?? 0)),
          maxBytes: SNAPSHOT_BUDGETS.requestedMaxBytes,
          requestId: req.requestId,
        });
        return;
      }
      case Opcode.Ack:
        return ack(stream, json);
      case Opcode.SetOutputPaused: {
        const p = parseSetOutputPaused(json);
        if (!p.ok || p.value.paused === stream.paused) return;
        stream.paused = p.value.paused;
        if (stream.paused) flow.dropQueue(stream.id);
        return;
      }
    }
  }

  queueMicrotask(() => {
    if (!closed) options.emit({ type: 'ready' });
  });

  return {
    receive(bytes) {
      if (closed) return;
      const decoded = decoder.decode(bytes);
      if (!decoded.ok) return reject(decoded.reason, decoded.detail);
      const { opcode, streamId, payload } = decoded.value;
      const info = opcodeInfo(opcode);
      if (!info) return reject('unknown-opcode', String(opcode));
      if (info.direction !== 'client-to-host') return reject('wrong-direction', info.name);
      if ((opcode === Opcode.Subscribe) !== (streamId === 0)) return reject('bad-stream', info.name);
      if (opcode === Opcode.Subscribe) {
        const json = decodeJsonPayload(payload);
        return json.ok ? subscribe(json.value) : reject(json.reason);
      }
      const stream = streams.get(streamId);
      // Why: frames for a stream just unsubscribed are a benign race, never a reason to close.
      if (!stream) return counter.reject('unknown-stream');
      if (info.gate && !stream.grant.has(info.gate)) return counter.reject('not-negotiated', info.name);
      dispatch(stream, opcode, payload);
    },
    close,
    stats: () => ({ ...counter.snapshot(), refusedInputs, ignoredAcks, refusedViewports }),
  };
}
