import { scanJsonShape } from '@orca/wire';
import { MAX_JSON_STRUCTURAL_TOKENS } from '../constants.ts';

/** Result of {@link parseLimitedJson}. */
export type LimitedJsonResult = { ok: true; value: unknown } | { ok: false; reason: 'json' | 'limits' };

/** Strip one leading U+FEFF. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parse JSON after wire's depth/token pre-scan (`scanJsonShape`, at most `maxDepth` deep and
 * {@link MAX_JSON_STRUCTURAL_TOKENS} tokens); never throws. One leading BOM is stripped.
 * Over a limit → `limits`; syntax → `json`.
 */
export function parseLimitedJson(text: string, maxDepth: number): LimitedJsonResult {
  const t = stripBom(text);
  if (scanJsonShape(t, { maxDepth, maxTokens: MAX_JSON_STRUCTURAL_TOKENS }).over !== false)
    return { ok: false, reason: 'limits' };
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch {
    return { ok: false, reason: 'json' };
  }
}
