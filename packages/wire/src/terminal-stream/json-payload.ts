import { WireError } from '../errors.ts';
import { scanJsonShape } from '../json-prescan.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import type { DecodeResult } from './decode-result.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** UTF-8 text payload, decoded non-fatally (bad bytes become U+FFFD). Never throws. */
export function decodeTextPayload(payload: Uint8Array): string {
  // Why: Node's Buffer UTF-8 path is several times faster than TextDecoder for output-sized text
  // and replaces bad bytes with U+FFFD the same way.
  if (typeof Buffer === 'function')
    return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
  return lenient.decode(payload);
}

/** UTF-8 text payload. */
export function encodeTextPayload(text: string): Uint8Array {
  if (typeof Buffer === 'function') return Buffer.from(text, 'utf8');
  return encoder.encode(text);
}

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
