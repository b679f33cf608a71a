import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { KEEPER_FILE_MODE } from './constants.ts';
import { KeeperError } from './errors.ts';

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

/** Fields of `/proc/<pid>/stat` after the command name (state first), or null where there is none. */
function procStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Why: the command name (in parentheses) may hold spaces and parentheses itself.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The kernel's start time of process `pid` (clock ticks since boot; Linux), or null where unknown. */
export function processStartTime(pid: number): string | null {
  return procStatFields(pid)?.[19] ?? null;
}

/** True when a process with this pid exists and has not ended (signal 0; EPERM counts as alive; a zombie does not). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // Why: a keeper that died but is not yet reaped by its parent still answers signal 0.
  return procStatFields(pid)?.[0] !== 'Z';
}

/**
 * True when the keeper `info` names still runs: its pid is alive and, where the file recorded it,
 * the process there started when the keeper did (a pid reused after a reboot or crash is not it).
 */
export function keeperAlive(info: Pick<KeeperInfo, 'pid' | 'procStart'>): boolean {
  if (!pidAlive(info.pid)) return false;
  if (info.procStart === undefined) return true;
  const now = processStartTime(info.pid);
  return now === null || now === info.procStart;
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
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        linkSync(tmp, path);
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
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const existing = readKeeperInfo(path);
      if (existing && keeperAlive(existing)) {
        throw new KeeperError(
          'ORCA_KEEPER_ALREADY_RUNNING',
          `a keeper already holds ${dirname(path)} (pid ${existing.pid})`,
          { context: { pid: existing.pid } },
        );
      }
      try {
        unlinkSync(path);
      } catch {
        // raced with another taker; retry
      }
    }
    throw new KeeperError('ORCA_KEEPER_ALREADY_RUNNING', `could not claim ${path}: another keeper keeps racing for it`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
  }
}
