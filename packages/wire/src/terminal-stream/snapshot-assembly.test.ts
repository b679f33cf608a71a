import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Opcode } from './opcodes.ts';
import { applySnapshotFrame, type SnapshotStreamState, snapshotRoute } from './snapshot-assembly.ts';
import { buildSnapshotMeta, type SnapshotMeta } from './snapshot-meta.ts';
import { encodeTextPayload } from './text-codec.ts';

const NONE = new Uint8Array(0);
const fresh = (over: Partial<SnapshotStreamState> = {}): SnapshotStreamState => ({
  initialDone: false,
  awaitingRequests: 0,
  resyncPending: false,
  expected: undefined,
  assembly: undefined,
  ...over,
});
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => buildSnapshotMeta({ kind: 'scrollback', ...over });
const start = (s: SnapshotStreamState, m: SnapshotMeta, max = 1000) =>
  applySnapshotFrame(s, Opcode.SnapshotStart, NONE, m, max);
const chunk = (s: SnapshotStreamState, text: string, max = 1000) =>
  applySnapshotFrame(s, Opcode.SnapshotChunk, encodeTextPayload(text), undefined, max);
const end = (s: SnapshotStreamState, max = 1000) => applySnapshotFrame(s, Opcode.SnapshotEnd, NONE, undefined, max);

describe('snapshotRoute', () => {
  it('request when tagged or awaited, else initial before the first, recovery after', () => {
    const cases: Array<[Partial<SnapshotMeta>, Partial<SnapshotStreamState>]> = [
      [{}, {}],
      [{}, { initialDone: true }],
      [{ requestId: 3 }, {}],
      [{}, { initialDone: true, awaitingRequests: 1 }],
      [{ requestId: 3 }, { initialDone: true }],
    ];
    expect(cases.map(([m, s]) => snapshotRoute(meta(m), fresh(s)))).toEqual([
      'initial',
      'recovery',
      'request',
      'request',
      'request',
    ]);
  });
});

describe('applySnapshotFrame', () => {
  it('start → chunks → end yields the joined text and settles the stream (initialDone is the caller’s)', () => {
    const s = fresh({ resyncPending: true });
    const m = meta({ seq: 42 });
    expect(start(s, m)).toEqual({ kind: 'started', route: 'initial' });
    expect([chunk(s, 'hé'), chunk(s, 'llo')]).toEqual([{ kind: 'appended' }, { kind: 'appended' }]);
    expect(end(s)).toEqual({ kind: 'complete', snapshot: { route: 'initial', meta: m, data: 'héllo' } });
    expect(s).toEqual(fresh({ expected: 42 }));
  });

  it('chunks and ends with nothing open are ignored and change nothing', () => {
    const s = fresh({ initialDone: true, expected: 7 });
    expect([chunk(s, 'x'), end(s)]).toEqual([{ kind: 'ignored' }, { kind: 'ignored' }]);
    expect(s).toEqual(fresh({ initialDone: true, expected: 7 }));
  });

  it('goes oversize past the byte limit (bytes, not characters), discarding the snapshot whole', () => {
    const s = fresh({ resyncPending: true });
    start(s, meta({ seq: 5 }), 4);
    expect(chunk(s, 'éé', 4)).toEqual({ kind: 'appended' });
    expect(chunk(s, 'x', 4)).toEqual({ kind: 'oversize', route: 'initial' });
    expect(end(s, 4)).toEqual({ kind: 'ignored' });
    expect(s).toEqual(fresh({ resyncPending: true }));
  });

  it('a tagged request answer counts the request off but leaves a pending resync; an untagged one clears it', () => {
    const tagged = fresh({ initialDone: true, awaitingRequests: 2, resyncPending: true });
    start(tagged, meta({ requestId: 1 }));
    expect(end(tagged)).toMatchObject({ kind: 'complete', snapshot: { route: 'request' } });
    expect(tagged).toEqual(fresh({ initialDone: true, awaitingRequests: 1, resyncPending: true }));

    const untagged = fresh({ initialDone: true, awaitingRequests: 1, resyncPending: true });
    start(untagged, meta());
    expect(end(untagged)).toMatchObject({ kind: 'complete', snapshot: { route: 'request' } });
    expect(untagged).toEqual(fresh({ initialDone: true }));
  });

  it('a new Start replaces an open snapshot; a snapshot without seq keeps expected', () => {
    const s = fresh({ initialDone: true, expected: 9 });
    start(s, meta());
    chunk(s, 'old');
    start(s, meta());
    chunk(s, 'new');
    expect(end(s)).toMatchObject({ snapshot: { route: 'recovery', data: 'new' } });
    expect(s.expected).toBe(9);
  });

  it('any split of the text into chunks assembles the same data', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 8 }), (parts) => {
        const s = fresh();
        start(s, meta());
        for (const part of parts) chunk(s, part, Number.MAX_SAFE_INTEGER);
        expect(end(s)).toMatchObject({ kind: 'complete', snapshot: { data: parts.join('') } });
      }),
    );
  });
});
