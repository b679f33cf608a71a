import { closeSync, openSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { terminalSafeJsonText } from '@orca/shared/printable';
import pino from 'pino';
import { createStream } from 'rotating-file-stream';
import { DATA_FILE_MODE, LOG_FILES_KEPT, LOG_MAX_BYTES } from '../constants.ts';

/** The host's structured logger (pino, JSON lines). Tokens are never passed to it. */
export type HostLogger = pino.Logger;

/**
 * Opens `logs/host.log` (mode 0600) as a pino destination that rotates by size: past
 * `LOG_MAX_BYTES` it becomes `host.log.1` (the older ones shift up) and at most `LOG_FILES_KEPT`
 * rotated files are kept.
 *
 * @example
 * const log = createHostLogger('/data/logs/host.log'); log.info({ port }, 'hook listener bound');
 */
export function createHostLogger(
  file: string,
  level: string = process.env.ORCA_LOG_LEVEL ?? 'info',
  limits: { maxBytes?: number; files?: number } = {},
): HostLogger {
  // Why: the stream creates the file with the umask's mode; create it 0600 first.
  closeSync(openSync(file, 'a', DATA_FILE_MODE));
  const name = basename(file);
  // Why: with `rotate` (classical logrotate) the generator gets the rotated file's index first.
  const stream = createStream(
    (index: number | Date | null) => (typeof index === 'number' ? `${name}.${index}` : name),
    {
      path: dirname(file),
      size: `${Math.max(1, Math.ceil((limits.maxBytes ?? LOG_MAX_BYTES) / 1024))}K`,
      rotate: limits.files ?? LOG_FILES_KEPT,
      mode: DATA_FILE_MODE,
    },
  );
  // Why: a log that cannot be written must not take the host down.
  stream.on('error', () => undefined);
  return pino(
    // Why: `cat logs/host.log` must not let a hostile cwd or title drive the reader's terminal;
    // pino escapes C0 already, DEL and C1 are escaped here.
    { level, base: { pid: process.pid }, hooks: { streamWrite: terminalSafeJsonText } },
    stream,
  );
}

/** A logger that writes nothing (tests, demo internals). */
export function silentLogger(): HostLogger {
  return pino({ level: 'silent' });
}
