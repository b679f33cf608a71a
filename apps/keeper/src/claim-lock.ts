import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { CLAIM_LOCK_STALE_MS, CLAIM_LOCK_WAIT_MS } from './constants.ts';
import { KeeperError } from './errors.ts';
import { keeperAlive, processStartTime } from './process-identity.ts';

function holderOf(lock: string): { pid: number; procStart?: string } | null {
  try {
    const v = JSON.parse(readFileSync(lock, 'utf8')) as { pid?: unknown; procStart?: unknown };
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return null;
    return typeof v.procStart === 'string' ? { pid: v.pid, procStart: v.procStart } : { pid: v.pid };
  } catch {
    return null;
  }
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Runs `fn` while holding `<path>.lock` (linked into place whole, 0600, naming this process). Why: a
 * claim file (runtime.json, keeper.json) is replaced by reading it, judging it stale and removing
 * it; two processes doing that at once could each remove the other's fresh claim and both run.
 * Whoever removes a claim holds this lock; a lock whose holder died is removed. Waits up to
 * `waitMs` (default `CLAIM_LOCK_WAIT_MS`), then throws `ORCA_KEEPER_CLAIM_LOCKED`.
 */
export function withClaimLock<T>(path: string, fn: () => T, opts: { waitMs?: number } = {}): T {
  const lock = `${path}.lock`;
  const waitMs = opts.waitMs ?? CLAIM_LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  const procStart = processStartTime(process.pid);
  for (;;) {
    // Why: written whole, then linked into place, so a lock never exists without its holder.
    const tmp = `${lock}.${process.pid}-${randomUUID()}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, ...(procStart ? { procStart } : {}) }), {
        mode: 0o600,
        flag: 'wx',
      });
      linkSync(tmp, lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(lock);
      // Why: a lock without a readable holder (left by an older version) counts as stale once it
      // is older than CLAIM_LOCK_STALE_MS; one whose holder died, at once.
      if ((holder && !keeperAlive(holder)) || (!holder && olderThan(lock, CLAIM_LOCK_STALE_MS))) {
        try {
          unlinkSync(lock);
        } catch {
          // another waiter removed it first
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new KeeperError(
          'ORCA_KEEPER_CLAIM_LOCKED',
          `${lock} is held${holder ? ` by pid ${holder.pid}` : ''} for more than ${waitMs} ms; if no orca process runs, remove it`,
          { context: { lock } },
        );
      }
      pause(10);
      continue;
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        // not written
      }
    }
    try {
      return fn();
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // gone already
      }
    }
  }
}
