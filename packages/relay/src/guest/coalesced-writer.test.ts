import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalescedWriter } from './coalesced-writer.ts';

/** A stream recording each chunk list the stream machinery hands down (writev or write). */
function recordingStream(highWaterMark = 16 * 1024): { stream: Writable; calls: string[][] } {
  const calls: string[][] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      calls.push([chunk.toString()]);
      cb();
    },
    writev(chunks, cb) {
      calls.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      cb();
    },
  });
  return { stream, calls };
}
const turn = () => new Promise<void>((r) => setImmediate(r));

describe('coalescedWriter', () => {
  it("a turn's first write goes out at once, the rest of the turn as one writev, in order", async () => {
    const { stream, calls } = recordingStream();
    const w = coalescedWriter(stream);
    for (const s of ['a', 'b', 'c', 'd']) w.write(Buffer.from(s));
    expect(calls).toEqual([['a']]);
    await turn();
    expect(calls).toEqual([['a'], ['b', 'c', 'd']]);
    w.write(Buffer.from('e'));
    expect(calls).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    w.write(Buffer.from('f'));
    await turn();
    expect(calls).toEqual([['a'], ['b', 'c', 'd'], ['e'], ['f']]);
  });

  it('reports the stream backpressure of corked bytes, and flush() hands them down at once', () => {
    const { stream, calls } = recordingStream(4);
    const w = coalescedWriter(stream);
    expect(w.write(Buffer.from('ab'))).toBe(true);
    expect(w.write(Buffer.from('cdef'))).toBe(false);
    expect(w.write(Buffer.from('gh'))).toBe(false);
    expect(calls).toEqual([['ab']]);
    w.flush();
    expect(calls).toEqual([['ab'], ['cdef', 'gh']]);
    w.flush();
    expect(calls).toHaveLength(2);
  });
});
