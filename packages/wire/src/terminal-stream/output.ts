import { TERMINAL_LIMITS } from '../limits.ts';

function utf8Length(code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code < 0x10000) return 3;
  return 4;
}

/**
 * Splits output text into chunks of at most `maxBytes` UTF-8 bytes (a lone surrogate counts 3),
 * never between a high and a low surrogate. Chunks concatenate to the input; each `seq` is the
 * cumulative UTF-16 end offset and the last equals `endSeq`.
 *
 * @example
 * splitOutput('héllo', 105, 3); // [{ text: 'hé', seq: 102 }, { text: 'llo', seq: 105 }]
 */
export function splitOutput(
  text: string,
  endSeq: number,
  maxBytes: number = TERMINAL_LIMITS.chunkBytes,
): Array<{ text: string; seq: number }> {
  const startSeq = endSeq - text.length;
  const chunks: Array<{ text: string; seq: number }> = [];
  let chunkStart = 0;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i) ?? 0;
    const units = code > 0xffff ? 2 : 1;
    const size = utf8Length(code);
    if (bytes + size > maxBytes && i > chunkStart) {
      chunks.push({ text: text.slice(chunkStart, i), seq: startSeq + i });
      chunkStart = i;
      bytes = 0;
    }
    bytes += size;
    i += units;
  }
  if (i > chunkStart || chunks.length === 0) chunks.push({ text: text.slice(chunkStart), seq: startSeq + text.length });
  return chunks;
}

/** What a client does with an output frame. */
export type OutputClass = 'accept' | 'gap' | 'duplicate' | 'overlap';

/**
 * Classifies an output frame against the client's expected seq. `rawLength` is the UTF-16 length for
 * Output, the field for OutputSpan; `start = seq − rawLength`.
 */
export function classifyOutput(expected: number | undefined, seq: number, rawLength: number): OutputClass {
  if (expected === undefined) return 'accept';
  const start = seq - rawLength;
  if (start > expected) return 'gap';
  if (seq <= expected) return 'duplicate';
  if (start < expected) return 'overlap';
  return 'accept';
}
