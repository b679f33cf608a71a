import { MAX_JSON_STRUCTURAL_TOKENS } from '../constants.ts';

/** Result of {@link parseLimitedJson}. */
export type LimitedJsonResult = { ok: true; value: unknown } | { ok: false; reason: 'json' | 'limits' };

/**
 * Scan `text` for nesting depth and structural tokens (`{}[],:` outside strings, escapes
 * honoured) without parsing. Returns the maximum depth and token count, stopping early once
 * either passes its limit.
 */
export function scanJsonShape(
  text: string,
  maxDepth: number,
  maxTokens: number = MAX_JSON_STRUCTURAL_TOKENS,
): { depth: number; tokens: number; over: boolean } {
  let depth = 0;
  let maxSeen = 0;
  let tokens = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    switch (c) {
      case 0x22:
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        depth++;
        tokens++;
        if (depth > maxSeen) maxSeen = depth;
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
        break;
    }
    if (maxSeen > maxDepth || tokens > maxTokens) return { depth: maxSeen, tokens, over: true };
  }
  return { depth: maxSeen, tokens, over: false };
}

/** Strip one leading U+FEFF. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parse JSON after a depth/token pre-scan; never throws. One leading BOM is stripped.
 * Over a limit → `limits`; syntax → `json`.
 */
export function parseLimitedJson(text: string, maxDepth: number): LimitedJsonResult {
  const t = stripBom(text);
  if (scanJsonShape(t, maxDepth).over) return { ok: false, reason: 'limits' };
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch {
    return { ok: false, reason: 'json' };
  }
}
