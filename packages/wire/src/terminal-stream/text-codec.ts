// The UTF-8 text codec of text payloads (Output, SnapshotChunk, Input, Error).
import { utf8 } from '../internal/utf8.ts';

/**
 * UTF-8 text payload, decoded non-fatally (bad bytes become U+FFFD). Never throws.
 *
 * @example
 * decodeTextPayload(Uint8Array.of(0x61, 0xff)); // 'a\uFFFD'
 */
export function decodeTextPayload(payload: Uint8Array): string {
  // Why: on Node this is Buffer's UTF-8 path (several times faster, same U+FFFD replacement); see internal/utf8.ts.
  return utf8.decodeLenient(payload);
}

/**
 * UTF-8 text payload (a lone surrogate becomes U+FFFD).
 *
 * @example
 * encodeTextPayload('ls\r'); // Uint8Array [0x6c, 0x73, 0x0d]
 */
export function encodeTextPayload(text: string): Uint8Array {
  return utf8.encode(text);
}
