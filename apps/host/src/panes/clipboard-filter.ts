/**
 * Removes OSC 52 (clipboard write/read) sequences from a pane's output stream before it reaches
 * a client that was not granted the clipboard. Both introducers (`ESC ] 52 ;`, C1 `U+009D 52 ;`)
 * and every terminator (BEL, `ESC \`, C1 ST `U+009C`) are understood; a sequence split across
 * chunks is carried, so any split of the stream gives the same output as the whole. Everything
 * else passes through in order. The body of a sequence is discarded as it arrives (nothing is
 * buffered); one never terminated stops being swallowed after {@link CLIPBOARD_SEQUENCE_MAX_CHARS}.
 */
export interface ClipboardFilter {
  push(chunk: string): string;
}

/** Longest OSC 52 body swallowed while waiting for its terminator (chars). */
export const CLIPBOARD_SEQUENCE_MAX_CHARS = 1 << 20;

const INTRODUCERS = ['\x1b]52;', '\u009d52;'] as const;

/** Length of the longest suffix of `text` that is a proper prefix of an introducer. */
function partialIntroducer(text: string): number {
  for (let n = Math.min(text.length, 4); n > 0; n -= 1) {
    const tail = text.slice(-n);
    if (INTRODUCERS.some((intro) => intro.length > n && intro.startsWith(tail))) return n;
  }
  return 0;
}

function findIntroducer(text: string, from: number): number {
  let best = -1;
  for (const intro of INTRODUCERS) {
    const at = text.indexOf(intro, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** Index just past the terminator of a sequence whose body starts at `from`, or -1. */
function findTerminatorEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\x07' || ch === '\u009c') return i + 1;
    if (ch === '\x1b') {
      if (i + 1 >= text.length) return -1;
      if (text[i + 1] === '\\') return i + 2;
    }
  }
  return -1;
}

/**
 * @example
 * const f = createClipboardFilter();
 * f.push('a\x1b]52;c;aGk=\x07b'); // 'ab'
 */
export function createClipboardFilter(): ClipboardFilter {
  let carry = '';
  let inSequence = false;
  let swallowed = 0;
  return {
    push(chunk) {
      const text = carry + chunk;
      carry = '';
      let out = '';
      let pos = 0;
      for (;;) {
        if (inSequence) {
          const end = findTerminatorEnd(text, pos);
          if (end >= 0) {
            inSequence = false;
            pos = end;
            continue;
          }
          // Why: a lone ESC at the end may be the first half of `ESC \`.
          carry = text.endsWith('\x1b') ? '\x1b' : '';
          swallowed += text.length - pos - carry.length;
          if (swallowed > CLIPBOARD_SEQUENCE_MAX_CHARS) inSequence = false;
          return out;
        }
        const at = findIntroducer(text, pos);
        if (at < 0) {
          const rest = text.slice(pos);
          const hold = partialIntroducer(rest);
          carry = rest.slice(rest.length - hold);
          return out + rest.slice(0, rest.length - hold);
        }
        out += text.slice(pos, at);
        inSequence = true;
        swallowed = 0;
        pos = at + (text.startsWith(INTRODUCERS[0], at) ? INTRODUCERS[0].length : INTRODUCERS[1].length);
      }
    },
  };
}
