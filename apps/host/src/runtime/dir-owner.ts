import { lstatSync, type Stats, statSync } from 'node:fs';
import { HostError } from '../errors.ts';

/** The current user's uid, or null where the platform has none (Windows). */
export function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/**
 * Refuses a directory we would use that belongs to someone else (like ssh's `StrictModes`): an
 * existing `dir` must be a directory owned by the current user. `follow` decides whether a
 * symlink is followed (the data dir the user named) or refused (anything we create ourselves).
 * Nothing is changed; a missing `dir` passes (the caller creates it).
 */
export function assertOwnDirectory(dir: string, what: string, follow: boolean): void {
  const uid = currentUid();
  if (uid === null) return;
  let stats: Stats;
  try {
    stats = follow ? statSync(dir) : lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `cannot inspect ${what} ${dir}: ${(error as Error).message}; pass --data-dir to use another`,
      { cause: error, context: { dir } },
    );
  }
  if (!stats.isDirectory()) {
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `${what} ${dir} is not a directory${stats.isSymbolicLink() ? ' (a symlink)' : ''}; remove it or pass another --data-dir`,
      { context: { dir } },
    );
  }
  if (stats.uid !== uid) {
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `${what} ${dir} is owned by uid ${stats.uid}, not by you (uid ${uid}); use a directory you own (pass another --data-dir)`,
      { context: { dir, owner: stats.uid, uid } },
    );
  }
}
