import { RING_MAX_CHARS } from './constants.ts';

/** What a reattaching host gets: the output kept since `from`, and whether older output was dropped. */
export interface RingSlice {
  /** Position of the first character of `data` in the pane's whole output (UTF-16 units). */
  readonly from: number;
  /** Position just after the last character: the pane's output so far. */
  readonly to: number;
  readonly data: string;
  /** Output between what was asked for and `from` was dropped (the ring was full). */
  readonly truncated: boolean;
  /** Kept output follows `to` that `maxChars` left out. */
  readonly more?: boolean;
}

/**
 * A pane's recent output, bounded by `maxChars`: whole chunks as the PTY gave them, the oldest
 * dropped first. Positions count UTF-16 units from the pane's first output, so a host that saw
 * everything up to `n` asks for `since(n)` and gets exactly the rest.
 */
export class OutputRing {
  private readonly chunks: string[] = [];
  private start = 0;
  private end = 0;
  private kept = 0;

  constructor(private readonly maxChars: number = RING_MAX_CHARS) {}

  /** Appends a chunk; returns the position after it. */
  append(chunk: string): number {
    if (chunk.length === 0) return this.end;
    this.chunks.push(chunk);
    this.end += chunk.length;
    this.kept += chunk.length;
    while (this.kept > this.maxChars && this.chunks.length > 1) {
      const dropped = this.chunks.shift() as string;
      this.kept -= dropped.length;
      this.start += dropped.length;
    }
    // Why: a single chunk larger than the ring keeps only its tail.
    if (this.kept > this.maxChars) {
      const only = this.chunks[0] as string;
      const cut = only.length - dropLeadingLowSurrogate(only.slice(only.length - this.maxChars)).length;
      this.chunks[0] = only.slice(cut);
      this.kept -= cut;
      this.start += cut;
    }
    return this.end;
  }

  /** Drops the oldest kept output until at most `maxChars` remain (positions keep counting). */
  shrink(maxChars: number): void {
    if (this.kept <= maxChars) return;
    const tail = dropLeadingLowSurrogate(this.chunks.join('').slice(this.kept - maxChars));
    this.start += this.kept - tail.length;
    this.chunks.length = 0;
    this.chunks.push(tail);
    this.kept = tail.length;
  }

  /** The pane's output so far (UTF-16 units). */
  get position(): number {
    return this.end;
  }

  /** The kept output from `position` on (0: all that is kept), at most `maxChars` of it. */
  since(position = 0, maxChars = Number.POSITIVE_INFINITY): RingSlice {
    const wanted = Math.max(0, Math.min(position, this.end));
    if (wanted >= this.end) return { from: this.end, to: this.end, data: '', truncated: false };
    const truncated = wanted < this.start;
    const from = Math.max(wanted, this.start);
    let data = this.chunks.join('').slice(from - this.start);
    if (data.length <= maxChars) return { from, to: this.end, data, truncated };
    // Why: a page never ends between the two halves of a surrogate pair.
    const cut = isHighSurrogate(data.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    data = data.slice(0, cut);
    return { from, to: from + data.length, data, truncated, more: true };
  }
}

/** Why: a kept tail never starts with the second half of a surrogate pair. */
function dropLeadingLowSurrogate(text: string): string {
  const first = text.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
