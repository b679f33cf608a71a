import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withClaimLock } from './claim-lock.ts';
import { KEEPER_FILE_MODE } from './constants.ts';
import { pidAlive } from './process-identity.ts';

function pidIn(path: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The host's claim file, held by the keeper while no host is attached: published with `link(2)`
 * when absent or stale (its pid dead), never over a live process's; removed only while it is still
 * ours. A host that knows the keeper takes it over (its pid is the keeper's); one that does not
 * sees a live pid and refuses to start.
 */
export interface VacancyClaim {
  /** Publishes `content` (with `pid` and `keeper: true`) at `path` if nobody alive holds it; returns whether it did. */
  take(path: string, content: Record<string, unknown>): boolean;
  /** Removes the claim if the file is still ours. */
  drop(): void;
}

export function createVacancyClaim(): VacancyClaim {
  let held: string | null = null;
  return {
    take(path, content) {
      const owner = pidIn(path);
      if (owner === process.pid) {
        held = path;
        return true;
      }
      if (owner !== null && pidAlive(owner)) return false;
      const tmp = join(dirname(path), `.keeper-vacancy-${process.pid}-${randomUUID()}.tmp`);
      try {
        const fd = openSync(tmp, 'wx', KEEPER_FILE_MODE);
        try {
          writeSync(fd, `${JSON.stringify({ ...content, pid: process.pid, keeper: true })}\n`);
        } finally {
          closeSync(fd);
        }
        try {
          linkSync(tmp, path);
          held = path;
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
        }
        // Why: a stale claim is removed only under the claim lock (a host may be replacing it now);
        // never waited for: this runs on the keeper's loop, and is tried again shortly.
        return withClaimLock(
          path,
          () => {
            const current = pidIn(path);
            if (current !== null && current !== process.pid && pidAlive(current)) return false;
            // Why: replaced in one step, so the file is never absent for a claim that skips the lock.
            renameSync(tmp, path);
            held = path;
            return true;
          },
          { waitMs: 0 },
        );
      } catch {
        return false;
      } finally {
        try {
          unlinkSync(tmp);
        } catch {
          // nothing to clean
        }
      }
    },
    drop() {
      if (held === null) return;
      const path = held;
      held = null;
      if (pidIn(path) !== process.pid) return;
      try {
        unlinkSync(path);
      } catch {
        // gone already
      }
    },
  };
}
