import { WireError } from '../errors.ts';
import { utf8 } from '../internal/utf8.ts';
import { TERMINAL_LIMITS } from '../limits.ts';
import type { DecodeResult } from './decode-result.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 text payload, decoded non-fatally (bad bytes become U+FFFD). Never throws. */
export function decodeTextPayload(payload: Uint8Array): string {
  return utf8.decodeLenient(payload);
}

/** UTF-8 text payload. */
export function encodeTextPayload(text: string): Uint8Array {
  return utf8.encode(text);
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

/**
 * One pass over the bytes before `JSON.parse`: size, structural tokens `{}[],:` outside strings
 * (escapes honoured) and depth.
 */
function prescanJson(
  bytes: Uint8Array,
): { ok: true } | { ok: false; reason: 'json-too-large' | 'json-too-many-tokens' | 'json-too-deep' } {
  if (bytes.byteLength > TERMINAL_LIMITS.maxJsonBytes) return { ok: false, reason: 'json-too-large' };
  let tokens = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
      continue;
    }
    switch (b) {
      case 0x22:
        inString = true;
        break;
      case 0x7b:
      case 0x5b:
        depth++;
        tokens++;
        if (depth > TERMINAL_LIMITS.maxJsonDepth) return { ok: false, reason: 'json-too-deep' };
        break;
      case 0x7d:
      case 0x5d:
        depth--;
        tokens++;
        break;
      case 0x2c:
      case 0x3a:
        tokens++;
        break;
      default:
        continue;
    }
    if (tokens > TERMINAL_LIMITS.maxJsonStructuralTokens) return { ok: false, reason: 'json-too-many-tokens' };
  }
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
