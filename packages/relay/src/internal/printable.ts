// Why: these ranges are exactly what a terminal may act on (C0, DEL, C1).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]/g;
const UNPRINTABLE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from outside (a path from the guest's env, a hook field, an error quoting input) made safe
 * for one field of one `orca-relay:` stderr line: every C0 control (tab and newline included), DEL and C1
 * control becomes a visible escape (`\x1b`, `\x07`, `\x7f`, `\u009b`); everything else is kept.
 * Backslashes are kept as they are, so Windows paths stay readable (escaping is one-way).
 *
 * @example
 * printableField('evil\x1b]0;PWNED\x07'); // 'evil\\x1b]0;PWNED\\x07'
 */
export function printableField(text: string): string {
  return text.replace(UNPRINTABLE, escapeOne);
}

/** Like {@link printableField} but keeps newlines, for multi-line blocks (a screen tail, a report). */
export function printableBlock(text: string): string {
  return text.replace(UNPRINTABLE_BUT_NEWLINE, escapeOne);
}
