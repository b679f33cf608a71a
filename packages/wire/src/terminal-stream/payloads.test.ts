import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAME_REJECT_REASONS } from './frame.ts';
import {
  parseAck,
  parseMetadata,
  parseOutputSpan,
  parseResized,
  parseSetOutputPaused,
  parseSnapshotRequest,
  parseSubscribe,
  parseTerminalEvent,
  parseViewport,
  readableStreamId,
} from './payloads.ts';
import { buildSnapshotMeta, parseSnapshotMeta } from './snapshot-meta.ts';

describe('payload parsers', () => {
  it('never throw and always return a typed result (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        for (const r of [
          parseSubscribe(v),
          parseViewport(v),
          parseMetadata(v),
          parseAck(v, 'bytes'),
          parseAck(v, 'ranges'),
          parseOutputSpan(v),
          parseResized(v),
          parseSetOutputPaused(v),
          parseTerminalEvent(v),
          parseSnapshotMeta(v),
        ]) {
          if (!r.ok) expect(FRAME_REJECT_REASONS).toContain(r.reason);
        }
        expect(typeof parseSnapshotRequest(v)).toBe('object');
        readableStreamId(v);
      }),
    );
  });

  it('SnapshotRequest: invalid → {}', () => {
    expect(parseSnapshotRequest({ requestId: 0 })).toEqual({});
    expect(parseSnapshotRequest({ scrollbackRows: Number.POSITIVE_INFINITY })).toEqual({});
    expect(parseSnapshotRequest('x')).toEqual({});
    expect(parseSnapshotRequest({ requestId: 3, scrollbackRows: 200, extra: 1 })).toEqual({
      requestId: 3,
      scrollbackRows: 200,
    });
  });

  it('Resize with non-integers is rejected (ignored by the host)', () => {
    expect(parseViewport({ cols: 80.5, rows: 24 }).ok).toBe(false);
    expect(parseViewport({ cols: 80, rows: 24 })).toEqual({ ok: true, value: { cols: 80, rows: 24 } });
  });

  it('Ack shapes are strict and mode-bound', () => {
    expect(parseAck({ bytes: 1 }, 'bytes').ok).toBe(true);
    expect(parseAck({ bytes: 1, x: 1 }, 'bytes').ok).toBe(false);
    expect(parseAck({ bytes: 1 }, 'ranges').ok).toBe(false);
    expect(parseAck({ streamGeneration: 'g', ackedEndByte: 0 }, 'ranges').ok).toBe(true);
    expect(parseAck({ bytes: -1 }, 'bytes').ok).toBe(false);
  });

  it('OutputSpan needs transformed: true and a safe rawLength', () => {
    expect(parseOutputSpan({ data: 'x', rawLength: 3, transformed: true }).ok).toBe(true);
    expect(parseOutputSpan({ data: 'x', rawLength: 3, transformed: false }).ok).toBe(false);
    expect(parseOutputSpan({ data: 'x', rawLength: 2 ** 53, transformed: true }).ok).toBe(false);
  });

  it('Subscribe: streamId ≥ 1, non-empty terminal, client type defaults to desktop', () => {
    expect(parseSubscribe({ streamId: 1, terminal: 't', client: { id: 'c' } })).toEqual({
      ok: true,
      value: { streamId: 1, terminal: 't', client: { id: 'c', type: 'desktop' } },
    });
    expect(parseSubscribe({ streamId: 0, terminal: 't' }).ok).toBe(false);
    expect(readableStreamId({ streamId: 4 })).toBe(4);
    expect(readableStreamId({ streamId: 'x' })).toBeUndefined();
  });
});

describe('buildSnapshotMeta', () => {
  it('falls back to 80×24, always sets the two booleans, drops fields lacking their prerequisite', () => {
    expect(
      buildSnapshotMeta({ kind: 'scrollback', terminalOwner: 'x', kittyKeyboardFlags: 1, alternateScreen: true }),
    ).toEqual({
      kind: 'scrollback',
      cols: 80,
      rows: 24,
      truncated: false,
      truncatedByByteBudget: false,
    });
    expect(
      buildSnapshotMeta({ kind: 'resized', cols: 120, rows: 40, seq: 5, alternateScreen: true, kittyKeyboardFlags: 1 }),
    ).toEqual({
      kind: 'resized',
      cols: 120,
      rows: 40,
      truncated: false,
      truncatedByByteBudget: false,
      seq: 5,
      kittyKeyboardFlags: 1,
    });
    expect(
      buildSnapshotMeta({
        kind: 'scrollback',
        seq: 1,
        terminalOwner: 'o',
        alternateScreen: true,
        requestId: 2,
        reason: 'ack-pending-overflow',
      }),
    ).toMatchObject({ terminalOwner: 'o', alternateScreen: true, requestId: 2, reason: 'ack-pending-overflow' });
  });
});
