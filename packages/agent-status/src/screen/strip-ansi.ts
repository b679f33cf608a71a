// CSI, OSC (BEL/ST-terminated or cut off), charset designators, then two-byte ESC sequences.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)|\x1b[()*+][0-~]|\x1b[ -/]*[0-~]|\x1b$/g;
const C0_BUT_TAB = /[\x00-\x08\x0a-\x1f\x7f]/g;

/**
 * Remove CSI/OSC/two-byte ESC sequences and C0 controls but TAB from one line of text.
 *
 * @example
 * stripAnsi('\x1b[31mred\x1b[0m'); // 'red'
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(C0_BUT_TAB, '');
}
