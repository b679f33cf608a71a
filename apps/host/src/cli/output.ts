import { printableBlock, terminalSafeJson } from '@orca/shared/printable';
import { EXIT_REFUSED, EXIT_USAGE } from '../constants.ts';
import { isRefusal } from '../errors.ts';
import { formatErrorLine } from './human-lines.ts';

/** Where the CLI writes; injected so tests can capture it. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The process's own stdout/stderr. Why: the last line of defence: whatever a formatter missed
 * (commander's messages quote argv, a stack quotes input), no C0 but newline, no C1 and no DEL
 * reaches the terminal. The formatters escape their fields themselves, so this changes nothing
 * for them.
 */
export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${printableBlock(line)}\n`),
  err: (line) => process.stderr.write(`${printableBlock(line)}\n`),
};

/** A usage error raised by a command's own checks (exit 2). */
export { UsageError } from '../errors.ts';

/**
 * Prints one error as one line (`orca: <code>: <message>`; with `--json`, `{"error":{code,message}}`
 * on stdout) and returns the exit code: 1 for refusals and failures, 2 for usage errors. A stack
 * only with `--debug`.
 */
export function reportError(io: CliIo, error: unknown, opts: { json: boolean; debug: boolean }): number {
  const raw = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const code = typeof raw === 'string' ? raw : 'internal_error';
  const message = error instanceof Error ? error.message : String(error);
  const exit = code === 'ORCA_HOST_USAGE' ? EXIT_USAGE : EXIT_REFUSED;
  if (opts.json) io.out(terminalSafeJson({ error: { code, message, refused: isRefusal(error) } }));
  else io.err(formatErrorLine(code, message));
  if (opts.debug && error instanceof Error && error.stack) io.err(printableBlock(error.stack));
  return exit;
}
