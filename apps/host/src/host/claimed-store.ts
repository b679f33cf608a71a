import type { RuntimeClaim } from '../runtime/runtime-file.ts';
import { openStore, type Store } from '../store/store.ts';
import type { Host } from './host-types.ts';

/** Opens the store under the claim, marks panes of a previous run exited, compacts once. */
export function openClaimedStore(
  path: string,
  claim: RuntimeClaim,
  log: Host['log'],
  now: () => number,
  keeper: boolean,
  beforeWritingOff: () => void,
) {
  let store: Store;
  try {
    store = openStore(path, { onWriteError: (error) => log.error({ err: error }, 'store write failed') });
  } catch (error) {
    claim.release();
    throw error;
  }
  /** Why: a start that fails after the claim must leave neither runtime.json nor an open store behind. */
  const abandon = (): void => {
    try {
      store.close();
    } catch {
      // the store failure is what we report
    }
    claim.release();
  };
  const compact = (full = false): ReturnType<Store['gc']> => {
    const report = store.gc({ now: now(), full });
    if (report.expiredRows + report.orphanRows + report.cappedRows + report.verdictRows > 0 || full) {
      log.info(report, 'store compacted');
    }
    return report;
  };
  try {
    // Why: with a PTY keeper the panes may still run; they are settled against it once attached.
    if (!keeper && store.listPanes().some((p) => p.exitedAt === null)) beforeWritingOff();
    const restarted = keeper ? 0 : store.markLivePanesExited('host-restart', now());
    if (restarted > 0) log.info({ panes: restarted }, 'panes from a previous run marked exited (host-restart)');
    compact();
  } catch (error) {
    abandon();
    throw error;
  }
  return { store, abandon, compact };
}
