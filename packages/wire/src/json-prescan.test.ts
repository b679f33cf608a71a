import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJsonShape } from './json-prescan.ts';

const wide = { maxDepth: 1_000, maxTokens: Number.MAX_SAFE_INTEGER };
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('scanJsonShape', () => {
  it('counts depth and structural tokens outside strings, escapes honoured', () => {
    expect(scanJsonShape('{"a":[1,2]}', wide)).toEqual({ depth: 2, tokens: 6, over: false });
    expect(scanJsonShape('{"a":"{[,:]}\\"{{"}', wide)).toEqual({ depth: 1, tokens: 3, over: false });
    expect(scanJsonShape('', wide)).toEqual({ depth: 0, tokens: 0, over: false });
  });

  it('stops at the first limit passed; depth wins when one bracket passes both', () => {
    expect(scanJsonShape('[[[]]]', { maxDepth: 2, maxTokens: 100 })).toEqual({ depth: 3, tokens: 3, over: 'depth' });
    expect(scanJsonShape('[1,2,3]', { maxDepth: 5, maxTokens: 2 })).toEqual({ depth: 1, tokens: 3, over: 'tokens' });
    expect(scanJsonShape('[[', { maxDepth: 1, maxTokens: 1 })).toEqual({ depth: 2, tokens: 2, over: 'depth' });
    expect(scanJsonShape('[[]]', { maxDepth: 2, maxTokens: 4 })).toEqual({ depth: 2, tokens: 4, over: false });
  });

  it('a string and its UTF-8 bytes scan the same (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string({ unit: 'binary' })), fc.nat(40), fc.nat(400), (s, d, t) => {
        const limits = { maxDepth: d, maxTokens: t };
        expect(scanJsonShape(utf8(s), limits)).toEqual(scanJsonShape(s, limits));
      }),
    );
  });
});
