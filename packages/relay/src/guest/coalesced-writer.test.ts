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
  it('writes of one turn reach the stream as one writev, in order; the next turn starts a new one', async () => {
    const { stream, calls } = recordingStream();
    const w = coalescedWriter(stream);
    for (const s of ['a', 'b', 'c']) w.write(Buffer.from(s));
    expect(calls).toEqual([]);
    await turn();
    expect(calls).toEqual([['a', 'b', 'c']]);
    w.write(Buffer.from('d'));
    await turn();
    expect(calls).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('reports the stream backpressure of corked bytes, and flush() hands them down at once', () => {
    const { stream, calls } = recordingStream(4);
    const w = coalescedWriter(stream);
    expect(w.write(Buffer.from('ab'))).toBe(true);
    expect(w.write(Buffer.from('cdef'))).toBe(false);
    w.flush();
    expect(calls).toEqual([['ab', 'cdef']]);
    w.flush();
    expect(calls).toHaveLength(1);
  });
});
