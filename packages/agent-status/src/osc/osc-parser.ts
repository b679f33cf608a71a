import { OSC_MAX_FRAME_CHARS } from '../limits.ts';
import { decodeOscPayload, type OscStatusPayload } from './osc-payload.ts';

/** The introducer of an Orca status frame. */
export const OSC_STATUS_INTRODUCER = '\x1b]9999;';
const ESC = '\x1b';
const BEL = '\x07';

/** Output of one {@link OscStatusParser.push}. */
export interface OscPushResult {
  /** The input minus status frames, order kept. */
  display: string;
  /** Valid payloads of the frames completed by this push. */
  payloads: OscStatusPayload[];
}

/** Stream parser of OSC 9999 status frames; one per PTY. */
export interface OscStatusParser {
  push(chunk: string): OscPushResult;
  /** Release whatever is carried (an unfinished frame or introducer) unchanged. */
  flush(): string;
  readonly stats: { dropped: number };
}

/**
 * Create a parser that removes `ESC ] 9999 ; <json> BEL|ESC \` frames from a terminal stream.
 * Any split of the stream yields the same display and payloads as one chunk.
 *
 * @example
 * const p = createOscStatusParser();
 * p.push('hi\x1b]9999;{"state":"working"}\x07there'); // { display: 'hithere', payloads: [{ state: 'working' }] }
 */
export function createOscStatusParser(): OscStatusParser {
  let carry = '';
  const stats = { dropped: 0 };

  function push(chunk: string): OscPushResult {
    const text = carry === '' ? chunk : carry + chunk;
    carry = '';
    let start = text.indexOf(OSC_STATUS_INTRODUCER);
    if (start < 0) {
      // The common chunk: no frame; only a trailing piece of an introducer is held back.
      const keep = partialIntroducerAt(text, 0);
      if (keep === text.length) return { display: text, payloads: [] };
      carry = text.slice(keep);
      return { display: text.slice(0, keep), payloads: [] };
    }
    const payloads: OscStatusPayload[] = [];
    let display = '';
    let pos = 0;
    for (;;) {
      if (start < 0) {
        const keep = partialIntroducerAt(text, pos);
        display += text.slice(pos, keep);
        carry = text.slice(keep);
        break;
      }
      display += text.slice(pos, start);
      const bodyStart = start + OSC_STATUS_INTRODUCER.length;
      const end = findTerminator(text, bodyStart);
      if (end === 'more') {
        carry = text.slice(start);
        break;
      }
      if (end === 'overflow') {
        // Why: release the introducer unchanged and rescan after it — bounded memory, nothing lost.
        display += OSC_STATUS_INTRODUCER;
        pos = bodyStart;
      } else {
        const payload = decodeOscPayload(text.slice(bodyStart, end.bodyEnd));
        if (payload) payloads.push(payload);
        else stats.dropped++;
        pos = end.next;
      }
      start = text.indexOf(OSC_STATUS_INTRODUCER, pos);
    }
    return { display, payloads };
  }

  function flush(): string {
    const out = carry;
    carry = '';
    return out;
  }

  return { push, flush, stats };
}

/** Index where a trailing proper prefix of the introducer starts (text.length when none). */
function partialIntroducerAt(text: string, from: number): number {
  const min = Math.max(from, text.length - OSC_STATUS_INTRODUCER.length + 1);
  if (min >= text.length) return text.length;
  let i = text.indexOf(ESC, min);
  while (i >= 0) {
    if (OSC_STATUS_INTRODUCER.startsWith(text.slice(i))) return i;
    i = text.indexOf(ESC, i + 1);
  }
  return text.length;
}

type Terminator = { bodyEnd: number; next: number } | 'more' | 'overflow';

// A terminator must start within OSC_MAX_FRAME_CHARS body characters; deciding that needs at most
// one character more (the `\` of `ESC \`), so the carry never exceeds introducer + limit + 1.
function findTerminator(text: string, bodyStart: number): Terminator {
  const limit = bodyStart + OSC_MAX_FRAME_CHARS;
  const bel = text.indexOf(BEL, bodyStart);
  let esc = text.indexOf(ESC, bodyStart);
  while (esc >= 0 && esc < limit && (bel < 0 || esc < bel)) {
    if (esc + 1 >= text.length) return 'more';
    if (text.charCodeAt(esc + 1) === 0x5c) return { bodyEnd: esc, next: esc + 2 };
    esc = text.indexOf(ESC, esc + 1);
  }
  if (bel >= 0 && bel < limit) return { bodyEnd: bel, next: bel + 1 };
  return text.length < limit ? 'more' : 'overflow';
}
