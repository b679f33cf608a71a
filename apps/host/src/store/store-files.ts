import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import { DATA_FILE_MODE } from '../constants.ts';
import { HostError } from '../errors.ts';

/** The database file and the two files SQLite keeps beside it in WAL mode. */
export function storeFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}

/**
 * Creates `path` with mode 0600 when absent and tightens it and its `-wal`/`-shm` to 0600.
 * Why: SQLite creates the WAL and SHM files with the database file's mode, so the database file
 * must exist 0600 before SQLite first opens it; the umask only narrows that.
 */
export function tightenStoreFiles(path: string): void {
  if (process.platform === 'win32') return;
  if (!existsSync(path)) closeSync(openSync(path, 'a', DATA_FILE_MODE));
  for (const file of storeFiles(path)) {
    try {
      if ((statSync(file).mode & 0o777) !== DATA_FILE_MODE) chmodSync(file, DATA_FILE_MODE);
    } catch {
      // not created yet: SQLite gives it the database file's mode
    }
  }
}

/** Bytes of `orca.sqlite` plus its WAL. */
export function storeFileBytes(path: string): number {
  let total = 0;
  for (const file of storeFiles(path).slice(0, 2)) {
    try {
      total += statSync(file).size;
    } catch {
      // absent
    }
  }
  return total;
}

const WRITE_CODES = new Set([
  'SQLITE_READONLY',
  'SQLITE_READONLY_DBMOVED',
  'SQLITE_CANTOPEN',
  'SQLITE_PERM',
  'EACCES',
  'EROFS',
  'EPERM',
]);

/** A store failure as a {@link HostError} that names the file and says what to do. */
export function storeError(path: string, cause: unknown, doing: 'open' | 'write' = 'write'): HostError {
  if (cause instanceof HostError) return cause;
  const code = String((cause as { code?: unknown }).code ?? '');
  const message = (cause as Error).message ?? String(cause);
  const cantWrite = WRITE_CODES.has(code) || /^SQLITE_READONLY/.test(code) || /readonly/i.test(message);
  const full = code === 'SQLITE_FULL' || /disk is full|ENOSPC/.test(message);
  const hint = cantWrite
    ? 'make it writable by you (check the mode and owner of the file, its -wal/-shm and the directory, and that the file system is not read-only), or pass another --data-dir'
    : full
      ? 'free disk space (`orca gc` compacts the store) or pass another --data-dir'
      : 'move the file away to start fresh, or pass another --data-dir';
  return new HostError(
    'ORCA_HOST_STORE',
    `cannot ${cantWrite || full ? 'write' : doing} the store ${path}: ${message} (${code || 'error'}); ${hint}`,
    { cause, context: { path, sqliteCode: code } },
  );
}

/** Wraps every method of `target` so a failure surfaces as {@link storeError}. */
export function withStoreErrors<T extends object>(path: string, target: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(target)) {
    out[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return (value as (...a: unknown[]) => unknown)(...args);
            } catch (error) {
              throw storeError(path, error);
            }
          }
        : value;
  }
  return out as T;
}
