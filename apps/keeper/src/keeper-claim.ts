import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { withClaimLock } from './claim-lock.ts';
import { KEEPER_FILE_MODE } from './constants.ts';
import { KeeperError } from './errors.ts';
import { keeperAlive } from './process-identity.ts';

export { keeperAlive, pidAlive, processStartTime } from './process-identity.ts';

/** Content of `keeper.json`: how a host finds the keeper of its data dir. No secrets. */
export interface KeeperInfo {
  readonly pid: number;
  readonly socket: string;
  readonly protocol: number;
  readonly version: string;
  readonly startedAt: number;
  /**
   * The process's start time as the kernel counts it (`/proc/<pid>/stat`, field 22), where there is
   * one: with `pid` it names this keeper, so a pid reused by another process is not taken for it.
   */
  readonly procStart?: string;
}

const KeeperInfoSchema = z.object({
  pid: z.number().int().positive(),
  socket: z.string().min(1),
  protocol: z.number().int().nonnegative(),
  version: z.string(),
  startedAt: z.number(),
  procStart: z.string().max(40).optional(),
});

/** Reads and validates `keeper.json` (untrusted bytes); null when absent, unreadable or malformed. */
export function readKeeperInfo(path: string): KeeperInfo | null {
  try {
    const parsed = KeeperInfoSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * One keeper per state dir: publishes `keeper.json` with `link(2)`; a file naming a live pid
 * refuses with `ORCA_KEEPER_ALREADY_RUNNING`, a stale one is taken over. Returns the release.
 */
export function claimKeeperFile(path: string, info: KeeperInfo): () => void {
  const tmp = join(dirname(path), `.keeper-${process.pid}-${randomUUID()}.tmp`);
  const fd = openSync(tmp, 'wx', KEEPER_FILE_MODE);
  try {
    writeSync(fd, `${JSON.stringify(info)}\n`);
  } finally {
    closeSync(fd);
  }
  const link = (replace = false): (() => void) => {
    if (replace) renameSync(tmp, path);
    else linkSync(tmp, path);
    const release = (): void => {
      process.off('exit', release);
      const current = readKeeperInfo(path);
      if (current?.pid === info.pid && current.startedAt === info.startedAt) {
        try {
          unlinkSync(path);
        } catch {
          // gone already
        }
      }
    };
    process.on('exit', release);
    return release;
  };
  try {
    try {
      return link();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Why: judged stale and replaced under the claim lock, so two keepers starting at once cannot
    // each remove the other's fresh claim.
    return withClaimLock(path, () => {
      const existing = readKeeperInfo(path);
      if (existing && keeperAlive(existing)) {
        throw new KeeperError(
          'ORCA_KEEPER_ALREADY_RUNNING',
          `a keeper already holds ${dirname(path)} (pid ${existing.pid})`,
          { context: { pid: existing.pid } },
        );
      }
      // Why: replaced in one step, so the file is never absent for a claim that skips the lock.
      return link(true);
    });
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
  }
}
