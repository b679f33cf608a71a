import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeBuffer } from './node-buffer.ts';
import { bufferUtf8, portableUtf8, utf8 } from './utf8.ts';

const node = bufferUtf8(Buffer);

describe('utf8 codecs', () => {
  it('uses the Buffer fast path on Node', () => {
    expect(nodeBuffer).toBe(Buffer);
    expect(utf8.encode('x')).toBeInstanceOf(Buffer);
  });

  it('the portable (browser) codec gives the same bytes and text as the Buffer one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 32 }), (text, header) => {
        expect(portableUtf8.byteLength(text)).toBe(node.byteLength(text));
        expect([...portableUtf8.encode(text)]).toEqual([...node.encode(text)]);
        expect([...portableUtf8.allocWithText(header, text).subarray(header)]).toEqual([...node.encode(text)]);
        expect(portableUtf8.allocWithText(header, text).byteLength).toBe(header + node.byteLength(text));
        expect(node.allocWithText(header, text).byteLength).toBe(header + node.byteLength(text));
      }),
    );
  });

  it('decodes bad UTF-8 to U+FFFD the same way on both paths', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(portableUtf8.decodeLenient(bytes)).toBe(node.decodeLenient(bytes));
      }),
    );
    expect(portableUtf8.decodeLenient(new Uint8Array([0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
  });

  it('allocates owned, exact-length arrays on both paths', () => {
    for (const codec of [portableUtf8, node]) {
      const a = codec.allocFilledByCaller(100);
      expect(a.byteLength).toBe(100);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(100);
    }
  });
});
