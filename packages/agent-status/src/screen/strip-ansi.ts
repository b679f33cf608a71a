/**
 * Remove CSI/OSC/two-byte ESC sequences and C0 controls but TAB from one line of text.
 * A linear scan (the hot path of every matcher): CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \`
 * (or cut off at the end), charset designators `ESC ( X`, other `ESC <intermediates> final`.
 * A cursor movement (`CUF`, `CHA`, `CUP`, …) becomes one space unless a space is already there:
 * real TUIs (Claude Code, Codex) move the cursor between words instead of printing spaces.
 *
 * @example
 * stripAnsi('\x1b[31mred\x1b[0m'); // 'red'
 * stripAnsi('Do\x1b[4Gyou'); // 'Do you'
 */
export function stripAnsi(text: string): string {
  let out = '';
  let runStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c !== 0x7f) {
      i++;
      continue;
    }
    if (c === 0x09) {
      i++;
      continue;
    }
    out += text.slice(runStart, i);
    if (c === 0x1b) {
      const end = skipEscape(text, i);
      if (isCursorMove(text, i, end) && out.length > 0 && !endsInSpace(out)) out += ' ';
      i = end;
    } else i++;
    runStart = i;
  }
  return runStart === 0 ? text : out + text.slice(runStart);
}

// CSI finals that move the cursor: CUU CUD CUF CUB CNL CPL CHA CUP (A–H), HPA ` HPR a VPA d VPR e HVP f.
const MOVE_FINALS = new Set([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x60, 0x61, 0x64, 0x65, 0x66]);

function isCursorMove(text: string, start: number, end: number): boolean {
  return end - start >= 3 && text.charCodeAt(start + 1) === 0x5b && MOVE_FINALS.has(text.charCodeAt(end - 1));
}

function endsInSpace(out: string): boolean {
  const c = out.charCodeAt(out.length - 1);
  return c === 0x20 || c === 0x09;
}

function skipEscape(text: string, at: number): number {
  const n = text.length;
  let i = at + 1;
  if (i >= n) return n;
  const kind = text.charCodeAt(i);
  if (kind === 0x5b) {
    // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, one final 0x40–0x7E
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c >= 0x40 && c <= 0x7e) return i + 1;
      if (c < 0x20 || c > 0x3f) return i; // malformed: drop the introducer only
      i++;
    }
    return n;
  }
  if (kind === 0x5d) {
    // OSC: until BEL or ESC \ (or the end of the line)
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x07) return i + 1;
      if (c === 0x1b) return text.charCodeAt(i + 1) === 0x5c ? i + 2 : i;
      i++;
    }
    return n;
  }
  // nF / Fp / Fe / Fs: intermediates 0x20–0x2F then one final 0x30–0x7E
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c <= 0x2f) {
      i++;
      continue;
    }
    return c >= 0x30 && c <= 0x7e ? i + 1 : i;
  }
  return n;
}
