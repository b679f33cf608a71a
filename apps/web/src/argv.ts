/** Splits an argv line on whitespace; `"…"` / `'…'` keep spaces inside one argument. */
export function splitArgv(line: string): string[] {
  const args: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) args.push(m[1] ?? m[2] ?? m[3] ?? '');
  return args;
}
