import { WireError } from '../errors.ts';
import { scanJsonShape } from '../json-prescan.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import type { DecodeResult } from './decode-result.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 `JSON.stringify` (undefined keys vanish). Throws `ORCA_WIRE_JSON_LIMIT` when the result
 * would be rejected by a peer's {@link decodeJsonPayload}.
 */
export function encodeJsonPayload(value: unknown): Uint8Array {
  const bytes = encoder.encode(JSON.stringify(value) ?? 'null');
  const scan = prescanJson(bytes);
  if (!scan.ok) throw new WireError('ORCA_WIRE_JSON_LIMIT', `JSON payload refused by the peer limits: ${scan.reason}`);
  return bytes;
}

const SHAPE_LIMITS = {
  maxDepth: TERMINAL_LIMITS.maxJsonDepth,
  maxTokens: TERMINAL_LIMITS.maxJsonStructuralTokens,
} as const;

/** Size, then {@link scanJsonShape} (structural tokens and depth), before `JSON.parse`. */
function prescanJson(
  bytes: Uint8Array,
): { ok: true } | { ok: false; reason: 'json-too-large' | 'json-too-many-tokens' | 'json-too-deep' } {
  if (bytes.byteLength > TERMINAL_LIMITS.maxJsonBytes) return { ok: false, reason: 'json-too-large' };
  const shape = scanJsonShape(bytes, SHAPE_LIMITS);
  if (shape.over === 'depth') return { ok: false, reason: 'json-too-deep' };
  if (shape.over === 'tokens') return { ok: false, reason: 'json-too-many-tokens' };
  return { ok: true };
}

/**
 * Decodes a JSON payload: fatal UTF-8, the pre-scan limits, then `JSON.parse`. Never throws.
 */
export function decodeJsonPayload(payload: Uint8Array): DecodeResult<unknown> {
  const scan = prescanJson(payload);
  if (!scan.ok) return scan;
  try {
    return { ok: true, value: JSON.parse(fatal.decode(payload)) };
  } catch {
    return { ok: false, reason: 'json-invalid' };
  }
}
