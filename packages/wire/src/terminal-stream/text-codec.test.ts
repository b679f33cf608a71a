import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeTextPayload, encodeTextPayload } from './text-codec.ts';

const reference = { encode: new TextEncoder(), decode: new TextDecoder('utf-8') };

describe('text codec', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('decodes bad UTF-8 to U+FFFD and honours a subarray view', () => {
    expect(decodeTextPayload(Uint8Array.of(0x61, 0xff))).toBe('a\uFFFD');
    const whole = encodeTextPayload('xxhéllo');
    expect(decodeTextPayload(whole.subarray(2))).toBe('héllo');
    expect([...encodeTextPayload('ls\r')]).toEqual([0x6c, 0x73, 0x0d]);
  });

  it('the Buffer path and the TextEncoder/TextDecoder path give the same bytes and text', () => {
    const cases = fc.sample(fc.string({ unit: 'binary' }), 200);
    const bytes = fc.sample(fc.uint8Array({ maxLength: 64 }), 200);
    const withBuffer = {
      encoded: cases.map((t) => [...encodeTextPayload(t)]),
      decoded: bytes.map((b) => decodeTextPayload(b)),
    };
    vi.stubGlobal('Buffer', undefined);
    const withoutBuffer = {
      encoded: cases.map((t) => [...encodeTextPayload(t)]),
      decoded: bytes.map((b) => decodeTextPayload(b)),
    };
    expect(withoutBuffer).toEqual(withBuffer);
    expect(withBuffer).toEqual({
      encoded: cases.map((t) => [...reference.encode.encode(t)]),
      decoded: bytes.map((b) => reference.decode.decode(b)),
    });
  });

  it('round-trips every well-formed string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodeTextPayload(encodeTextPayload(text))).toBe(text);
      }),
    );
  });
});
