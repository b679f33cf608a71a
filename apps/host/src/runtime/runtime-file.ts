import { randomUUID } from 'node:crypto';
import { closeSync, ftruncateSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withClaimLock } from '@orca/keeper';
import { z } from 'zod';
import { DATA_FILE_MODE } from '../constants.ts';
import { HostError } from '../errors.ts';

/** Content of `runtime.json`: how clients find a running host. No secrets. */
export interface RuntimeInfo {
  readonly pid: number;
  readonly socket: string;
  readonly protocolVersion: number;
  readonly appVersion: string;
  readonly startedAt: number;
  /**
   * Set when the PTY keeper holds the claim while no host runs (its pid is the keeper's): clients
   * are told no host runs; a host that knows the keeper takes the claim over.
   */
  readonly keeper?: boolean;
}

/** zod schema of `runtime.json` (read from disk: untrusted bytes). */
export const RuntimeInfoSchema = z.object({
  pid: z.number().int().positive(),
  socket: z.string().min(1),
  protocolVersion: z.number().int().nonnegative(),
  appVersion: z.string(),
  startedAt: z.number(),
  keeper: z.boolean().optional(),
});

/** Reads and validates `runtime.json`; `null` when absent or unreadable/malformed. */
export function readRuntimeInfo(path: string): RuntimeInfo | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = RuntimeInfoSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** True when a process with this pid exists (signal 0 probe; EPERM counts as alive). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The claim returned by {@link acquireRuntimeFile}; `release()` removes the file if still ours. */
export interface RuntimeClaim {
  readonly info: RuntimeInfo;
  release(): void;
}

/**
 * Single-instance guard: publishes `runtime.json` atomically with `link(2)` (fails if the file
 * exists). A file naming a live pid refuses with `ORCA_HOST_ALREADY_RUNNING`; a stale one (dead pid
 * or unreadable) is taken over. The claim is released by `release()` and, failing that, when the
 * process exits (uncaught errors included). When the directory turned read-only and the file
 * cannot be removed, it is emptied through the descriptor opened at claim time, so no reader
 * takes it for a live host.
 */
export function acquireRuntimeFile(
  path: string,
  info: RuntimeInfo,
  opts: { takeOver?: (existing: RuntimeInfo) => boolean } = {},
): RuntimeClaim {
  const tmp = join(dirname(path), `.runtime-${process.pid}-${randomUUID()}.tmp`);
  const fd = openSync(tmp, 'wx+', DATA_FILE_MODE);
  let linked = false;
  try {
    writeSync(fd, `${JSON.stringify(info)}\n`);
    try {
      linkSync(tmp, path);
      linked = true;
      return claimOf(path, info, fd);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Why: judged and replaced under the claim lock: two starts that both found the file stale
    // must not each remove the other's fresh claim and both run.
    return withClaimLock(path, () => {
      const existing = readRuntimeInfo(path);
      // Why: the data dir's own PTY keeper holds the claim while no host runs; this host replaces it.
      if (existing && isPidAlive(existing.pid) && !opts.takeOver?.(existing)) {
        throw new HostError(
          'ORCA_HOST_ALREADY_RUNNING',
          existing.keeper === true
            ? `the PTY keeper (pid ${existing.pid}) holds the running agents of ${dirname(path)}; start a host that attaches to it (\`orca start\`, not --no-keeper) or end them with \`orca stop --all\``
            : `a host is already running on ${dirname(path)} (pid ${existing.pid}); stop it or pass another --data-dir`,
          { context: { pid: existing.pid, keeper: existing.keeper === true } },
        );
      }
      // Why: a stale file (dead pid, or torn/garbage content) is taken over, never trusted; replaced
      // in one step, so it is never absent for a claim that skips the lock (the keeper's hold).
      renameSync(tmp, path);
      linked = true;
      return claimOf(path, info, fd);
    });
  } finally {
    if (!linked) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
  }
}

function claimOf(path: string, info: RuntimeInfo, fd: number): RuntimeClaim {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const current = readRuntimeInfo(path);
    if (current && current.pid === info.pid && current.startedAt === info.startedAt) {
      try {
        unlinkSync(path);
      } catch {
        // Why: a read-only directory refuses the unlink, but the descriptor opened before still
        // writes; an empty runtime.json reads as stale. Only our own inode is touched.
        try {
          ftruncateSync(fd, 0);
        } catch {
          // nothing more we can do; the dead pid marks it stale
        }
      }
    }
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  };
  process.on('exit', release);
  return { info, release };
}
