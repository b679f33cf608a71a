/** `'…'` single-quoted POSIX shell word (`'` → `'\''`). */
export function shSingleQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Whether `line` prints literally through every shell's `echo` (no `\`, no leading `-`). */
export function isEchoSafe(line: string): boolean {
  return !line.includes('\\') && !line.startsWith('-') && !line.includes('\n');
}

/** An environment variable name usable in generated scripts. */
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
