import { closeSync, openSync } from 'node:fs';
import pino from 'pino';
import { terminalSafeJsonText } from '../cli/printable.ts';
import { DATA_FILE_MODE } from '../constants.ts';

/** The host's structured logger (pino, JSON lines). Tokens are never passed to it. */
export type HostLogger = pino.Logger;

/**
 * Opens `logs/host.log` (mode 0600) as a pino destination.
 *
 * @example
 * const log = createHostLogger('/data/logs/host.log'); log.info({ port }, 'hook listener bound');
 */
export function createHostLogger(file: string, level: string = process.env.ORCA_LOG_LEVEL ?? 'info'): HostLogger {
  // Why: pino creates the file with the umask's mode; create it 0600 first.
  closeSync(openSync(file, 'a', DATA_FILE_MODE));
  return pino(
    // Why: `cat logs/host.log` must not let a hostile cwd or title drive the reader's terminal;
    // pino escapes C0 already, DEL and C1 are escaped here.
    { level, base: { pid: process.pid }, hooks: { streamWrite: terminalSafeJsonText } },
    pino.destination({ dest: file, sync: false }),
  );
}

/** A logger that writes nothing (tests, demo internals). */
export function silentLogger(): HostLogger {
  return pino({ level: 'silent' });
}
