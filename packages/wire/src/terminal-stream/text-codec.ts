// The UTF-8 text codec of text payloads (Output, SnapshotChunk, Input, Error).

const encoder = new TextEncoder();
const lenient = new TextDecoder('utf-8');

/**
 * UTF-8 text payload, decoded non-fatally (bad bytes become U+FFFD). Never throws.
 *
 * @example
 * decodeTextPayload(Uint8Array.of(0x61, 0xff)); // 'a\uFFFD'
 */
export function decodeTextPayload(payload: Uint8Array): string {
  // Why: Node's Buffer UTF-8 path is several times faster than TextDecoder for output-sized text
  // and replaces bad bytes with U+FFFD the same way.
  if (typeof Buffer === 'function')
    return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8');
  return lenient.decode(payload);
}

/**
 * UTF-8 text payload (a lone surrogate becomes U+FFFD).
 *
 * @example
 * encodeTextPayload('ls\r'); // Uint8Array [0x6c, 0x73, 0x0d]
 */
export function encodeTextPayload(text: string): Uint8Array {
  if (typeof Buffer === 'function') return Buffer.from(text, 'utf8');
  return encoder.encode(text);
}
