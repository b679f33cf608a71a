// Why: these ranges are exactly what a terminal may act on (C0, DEL, C1).
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]/g;
const UNPRINTABLE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const JSON_RAW_CONTROLS = /[\u007f-\u009f]/g;

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from outside (a cwd, a title, an argv word, a name, a hook field, an error quoting input)
 * made safe for one field of one line: every C0 control (tab and newline included), DEL and C1
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

/**
 * `JSON.stringify` whose output carries no raw control character: JSON.stringify already escapes
 * C0 as `\u00XX`; this also escapes DEL and C1 (U+007F–U+009F), which it leaves raw. The parsed
 * value is unchanged.
 *
 * @example
 * terminalSafeJson({ cwd: 'a\u009b' }); // '{"cwd":"a\\u009b"}'
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  // Why: JSON.stringify(undefined) is undefined; callers print a line either way.
  if (text === undefined) return 'null';
  return terminalSafeJsonText(text);
}

/**
 * Escapes DEL and C1 (U+007F–U+009F) in text that is already JSON (a log line): they are legal raw
 * inside JSON strings, so the parsed value is unchanged, but a terminal showing the file may act on them.
 */
export function terminalSafeJsonText(json: string): string {
  return json.replace(JSON_RAW_CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
