import { randomUUID } from 'node:crypto';
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATA_FILE_MODE } from '../constants.ts';
import { HostError } from '../errors.ts';

/** The published TCP bearer token file; `remove()` deletes it (idempotent). */
export interface RuntimeTokenFile {
  readonly path: string;
  remove(): void;
}

/**
 * Writes `token` to `path` with mode 0600, atomically (a fresh temp file created 0600, then
 * renamed), so no reader ever sees a partial token or a looser mode.
 */
export function writeRuntimeTokenFile(path: string, token: string): RuntimeTokenFile {
  const tmp = join(dirname(path), `.runtime-token-${process.pid}-${randomUUID()}.tmp`);
  try {
    writeFileSync(tmp, `${token}\n`, { mode: DATA_FILE_MODE, flag: 'wx' });
    renameSync(tmp, path);
  } catch (cause) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `cannot write the TCP token file ${path}: ${(cause as Error).message}; make the data directory writable or pass another --data-dir`,
      { cause, context: { path } },
    );
  }
  return {
    path,
    remove() {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}
