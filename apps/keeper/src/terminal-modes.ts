/**
 * DEC private modes a host must set again when it rebuilds a pane's screen from a ring that may
 * no longer hold the sequence that set them (they are usually sent once, at the program's start).
 */
export const TRACKED_MODES = [1, 25, 47, 1047, 1049, 1000, 1002, 1003, 1004, 1006, 2004] as const;

const TRACKED: ReadonlySet<number> = new Set(TRACKED_MODES);
// Why: `CSI ? Pm h|l` with any number of parameters; a sequence may be split between two chunks.
const SET_RESET = /\x1b\[\?([0-9;]{1,64})([hl])/g;
/** Longest unfinished sequence carried to the next chunk (chars). */
const CARRY_MAX = 72;

/**
 * Follows the tracked DEC private modes through a pane's output (`ESC [ ? n h` sets, `l` resets).
 *
 * @example
 * const modes = new ModeTracker();
 * modes.push('\x1b[?2004h\x1b[?1049h'); // modes.replay() === '\x1b[?1049h\x1b[?2004h'
 */
export class ModeTracker {
  private readonly on = new Set<number>();
  private carry = '';

  /** Reads a chunk of output. */
  push(chunk: string): void {
    const text = this.carry + chunk;
    let consumed = 0;
    for (const match of text.matchAll(SET_RESET)) {
      for (const part of (match[1] ?? '').split(';')) {
        const mode = Number(part);
        if (!TRACKED.has(mode)) continue;
        if (match[2] === 'h') this.on.add(mode);
        else this.on.delete(mode);
      }
      consumed = (match.index ?? 0) + match[0].length;
    }
    const rest = text.slice(consumed);
    const open = rest.lastIndexOf('\x1b');
    this.carry = open >= 0 && rest.length - open <= CARRY_MAX ? rest.slice(open) : '';
  }

  /** The modes on now, ascending. */
  active(): number[] {
    return [...this.on].sort((a, b) => a - b);
  }
}

/** The bytes that set `modes` again in a fresh terminal, ascending (the alternate screen first). */
export function modesReplay(modes: readonly number[]): string {
  return [...modes]
    .filter((m) => TRACKED.has(m))
    .sort((a, b) => a - b)
    .map((m) => `\x1b[?${m}h`)
    .join('');
}
