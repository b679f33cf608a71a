import type { GcReportView as GcReport } from '@orca/wire/contract';
import type Database from 'better-sqlite3';
import { HOOK_ROW_MAX_AGE_MS, HOOK_ROWS_PER_PANE_MAX, HOOK_ROWS_PER_PANE_MAX_BYTES } from '../constants.ts';

/** What one compaction removed and how the files changed: the contract's `store.gc` result. */
export type { GcReportView as GcReport } from '@orca/wire/contract';

// Why: pruning to a low-water mark makes the O(rows) window query run once per ~10% of the cap.
const LOW_WATER = 0.9;

/** Per-pane caps on hook rows: an O(1) tally per insert, a prune only when a cap is passed. */
export interface HookRowRetention {
  /** Records an inserted row of `bytes` for `paneKey`; prunes that pane's oldest rows past a cap. */
  inserted(paneKey: string, bytes: number): void;
  /** Re-applies the caps to every pane; returns the rows deleted. */
  capAll(): number;
  /** Forgets tallies (after a bulk delete). */
  reset(): void;
}

/** Builds the retention of the `hook_rows` table of `db`. */
export function hookRowRetention(
  db: Database.Database,
  caps = { rows: HOOK_ROWS_PER_PANE_MAX, bytes: HOOK_ROWS_PER_PANE_MAX_BYTES },
): HookRowRetention {
  const tallyOf = db.prepare(
    'SELECT COUNT(*) AS rows, COALESCE(SUM(size_bytes), 0) AS bytes FROM hook_rows WHERE pane_key = ?',
  );
  // Why: the newest row (rn = 1) is always kept, even alone over the byte cap.
  const prune = db.prepare(
    `DELETE FROM hook_rows WHERE id IN (
       SELECT id FROM (
         SELECT id, ROW_NUMBER() OVER w AS rn, SUM(size_bytes) OVER w AS cum
         FROM hook_rows WHERE pane_key = ? WINDOW w AS (ORDER BY id DESC)
       ) WHERE rn > 1 AND (rn > ? OR cum > ?)
     )`,
  );
  const overCap = db.prepare(
    'SELECT pane_key FROM hook_rows GROUP BY pane_key HAVING COUNT(*) > ? OR SUM(size_bytes) > ?',
  );
  const tallies = new Map<string, { rows: number; bytes: number }>();
  const pruneTo = (paneKey: string, factor: number): number => {
    const deleted = prune.run(paneKey, Math.floor(caps.rows * factor), Math.floor(caps.bytes * factor)).changes;
    tallies.set(paneKey, tallyOf.get(paneKey) as { rows: number; bytes: number });
    return deleted;
  };
  return {
    inserted(paneKey, bytes) {
      let tally = tallies.get(paneKey);
      if (!tally) {
        tally = tallyOf.get(paneKey) as { rows: number; bytes: number };
        tallies.set(paneKey, tally);
      } else {
        tally.rows += 1;
        tally.bytes += bytes;
      }
      if (tally.rows > caps.rows || tally.bytes > caps.bytes) pruneTo(paneKey, LOW_WATER);
    },
    capAll() {
      let deleted = 0;
      for (const { pane_key } of overCap.all(caps.rows, caps.bytes) as { pane_key: string }[]) {
        deleted += pruneTo(pane_key, 1);
      }
      return deleted;
    },
    reset: () => tallies.clear(),
  };
}

/**
 * One compaction of the store: deletes expired hook rows, rows of panes the store does not know,
 * rows over a pane's caps and old verdicts; then returns free pages to the file system
 * (`incremental_vacuum`, or a full `VACUUM` with `full`) and truncates the WAL.
 */
export function compactStore(
  db: Database.Database,
  retention: HookRowRetention,
  opts: { now: number; full?: boolean; fileBytes: () => number },
): GcReport {
  const bytesBefore = opts.fileBytes();
  const run = db.transaction(() => {
    const expiredRows = db
      .prepare('DELETE FROM hook_rows WHERE received_at < ?')
      .run(opts.now - HOOK_ROW_MAX_AGE_MS).changes;
    const orphanRows = db
      .prepare('DELETE FROM hook_rows WHERE pane_key NOT IN (SELECT pane_key FROM panes)')
      .run().changes;
    const cappedRows = retention.capAll();
    const verdictRows = db
      .prepare(
        `DELETE FROM verdicts WHERE id IN (
           SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY handle ORDER BY id DESC) AS rn FROM verdicts)
           WHERE rn > ?
         )`,
      )
      .run(HOOK_ROWS_PER_PANE_MAX).changes;
    return { expiredRows, orphanRows, cappedRows, verdictRows };
  });
  const counts = run();
  retention.reset();
  if (opts.full || db.pragma('auto_vacuum', { simple: true }) !== 2) {
    // Why: auto_vacuum can only be switched on by a VACUUM; a store from before it needs one, once.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('VACUUM');
  } else {
    db.pragma('incremental_vacuum');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { ...counts, bytesBefore, bytesAfter: opts.fileBytes() };
}
