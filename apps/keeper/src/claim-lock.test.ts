import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withClaimLock } from './claim-lock.ts';
import { CLAIM_LOCK_STALE_MS } from './constants.ts';

describe('withClaimLock', () => {
  it('holds <path>.lock (0600) while the function runs and removes it after, also when it throws', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'orca-lock-')), 'runtime.json');
    const seen = withClaimLock(path, () => statSync(`${path}.lock`).mode & 0o777);
    expect(seen).toBe(0o600);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(() =>
      withClaimLock(path, () => {
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('removes a lock whose holder died; waits for a live holder, then refuses with ORCA_KEEPER_CLAIM_LOCKED', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'orca-lock-')), 'runtime.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: Number(dead.stdout) }));
    expect(withClaimLock(path, () => 'ran')).toBe('ran');
    // This test's parent process stands in for a live holder.
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.ppid }));
    expect(() => withClaimLock(path, () => 'ran', { waitMs: 50 })).toThrow(
      expect.objectContaining({ code: 'ORCA_KEEPER_CLAIM_LOCKED' }),
    );
    expect(existsSync(`${path}.lock`)).toBe(true);
  });

  it('a lock with no readable holder (an older writer cut short) is stale once older than CLAIM_LOCK_STALE_MS', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'orca-lock-')), 'runtime.json');
    writeFileSync(`${path}.lock`, '');
    expect(() => withClaimLock(path, () => 'ran', { waitMs: 0 })).toThrow(
      expect.objectContaining({ code: 'ORCA_KEEPER_CLAIM_LOCKED' }),
    );
    const old = new Date(Date.now() - CLAIM_LOCK_STALE_MS - 1_000);
    utimesSync(`${path}.lock`, old, old);
    expect(withClaimLock(path, () => 'ran', { waitMs: 0 })).toBe('ran');
  });
});
