/** Limits of {@link scanJsonShape}. */
export interface JsonShapeLimits {
  /** Deepest nesting allowed (objects and arrays). */
  maxDepth: number;
  /** Most structural tokens (`{}[],:` outside strings) allowed. */
  maxTokens: number;
}

/** What {@link scanJsonShape} saw: the deepest nesting, the structural tokens, and which limit (if any) was passed. */
export interface JsonShape {
  depth: number;
  tokens: number;
  /** The limit passed first (`depth` wins when one `{`/`[` passes both); `false` within both. */
  over: false | 'depth' | 'tokens';
}

/**
 * One pass over JSON text before `JSON.parse`: nesting depth and structural tokens (`{}[],:`
 * outside strings, backslash escapes honoured), stopping as soon as a limit is passed. Works on
 * UTF-8 bytes and on JS strings alike (every structural character is ASCII, and no byte of a UTF-8
 * multi-byte sequence nor any UTF-16 surrogate equals one). Never throws; not a validator.
 *
 * @example
 * scanJsonShape('{"a":[1,2]}', { maxDepth: 64, maxTokens: 1_000 }); // { depth: 2, tokens: 5, over: false }
 */
export function scanJsonShape(input: string | Uint8Array, limits: JsonShapeLimits): JsonShape {
  const text = typeof input === 'string' ? input : undefined;
  const bytes = typeof input === 'string' ? undefined : input;
  const length = input.length;
  const { maxDepth, maxTokens } = limits;
  let depth = 0;
  let maxSeen = 0;
  let tokens = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = text === undefined ? (bytes as Uint8Array)[i] : text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        continue;
      case 0x7b: // {
      case 0x5b: // [
        depth++;
        tokens++;
        if (depth > maxSeen) {
          maxSeen = depth;
          if (maxSeen > maxDepth) return { depth: maxSeen, tokens, over: 'depth' };
        }
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth--;
        tokens++;
        break;
      case 0x2c: // ,
      case 0x3a: // :
        tokens++;
        break;
      default:
        continue;
    }
    if (tokens > maxTokens) return { depth: maxSeen, tokens, over: 'tokens' };
  }
  return { depth: maxSeen, tokens, over: false };
}
