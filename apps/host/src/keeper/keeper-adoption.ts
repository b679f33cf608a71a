import { KeeperCallError, type KeptPaneInfo } from '@orca/keeper';
import { KEPT_SCREEN_REBUILD_MAX_MS, PANE_STATUS_ROWS_KEPT } from '../constants.ts';
import type { LivePane } from '../panes/live-pane.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { PaneRecord, Store } from '../store/store.ts';
import type { KeeperLink } from './keeper-link.ts';

/** What the stored panes of a previous host run became, now that this host attached to the keeper. */
export interface KeeperSettlement {
  /** Live in the keeper: to be taken over. */
  readonly adopt: readonly { record: PaneRecord; info: KeptPaneInfo }[];
  /** Ended while no host was attached (recorded now with their exit). */
  readonly exitedMeanwhile: number;
  /** Unknown to the keeper (it was gone: reboot, `orca stop --all`, a crash): `keeper-gone`. */
  readonly gone: number;
  /** Held by the keeper but in no store row: killed. */
  readonly orphans: number;
}

/**
 * Settles the store's live panes against what the keeper holds: live ones are adopted, ended ones
 * recorded with their exit, the rest marked exited with cause `keeper-gone`; keeper panes the
 * store does not know are ended.
 */
export function settleWithKeeper(store: Store, link: KeeperLink, now: () => number): KeeperSettlement {
  const held = new Map(link.held.map((p) => [p.id, p]));
  const adopt: { record: PaneRecord; info: KeptPaneInfo }[] = [];
  let exitedMeanwhile = 0;
  let gone = 0;
  const known = new Set<string>();
  for (const record of store.listPanes()) {
    known.add(record.handle);
    if (record.exitedAt !== null) continue;
    const info = held.get(record.handle);
    const endedAlone = info ? undefined : link.exitedWhileAway.get(record.handle);
    if (endedAlone) {
      store.markPaneExited(record.handle, { ...endedAlone, cause: 'exit' });
      exitedMeanwhile += 1;
    } else if (!info) {
      store.markPaneExited(record.handle, { at: now(), code: null, signal: null, cause: 'keeper-gone' });
      gone += 1;
    } else if (info.exit) {
      store.markPaneExited(record.handle, {
        at: info.exit.at,
        code: info.exit.code,
        signal: info.exit.signal,
        cause: 'exit',
      });
      link.forget(info.id);
      exitedMeanwhile += 1;
    } else adopt.push({ record, info });
  }
  let orphans = 0;
  for (const info of link.held) {
    if (known.has(info.id)) continue;
    if (!info.exit) link.kill(info.id);
    link.forget(info.id);
    orphans += 1;
  }
  return { adopt, exitedMeanwhile, gone, orphans };
}

/**
 * Takes over each pane the keeper kept: rebuilds its screen from the keeper's ring, and feeds its
 * newest stored hook rows to its status tracker (they are what the verdict of a pane mid-turn rests
 * on), so its status is right before any new evidence arrives.
 */
export async function adoptKeptPanes(
  settlement: KeeperSettlement,
  o: { link: KeeperLink; panes: PaneRegistry; store: Store; log: HostLogger },
): Promise<number> {
  const adopted: LivePane[] = [];
  for (const { record, info } of settlement.adopt) {
    try {
      const taken = await o.link.adopt(info);
      const pane = o.panes.adopt(record, taken);
      pane.sessionId = record.sessionId ?? null;
      for (const row of o.store.hookRows(record.paneKey).slice(-PANE_STATUS_ROWS_KEPT)) {
        const payload = row.envelope.payload;
        pane.status.addHookEvent({
          source: row.source,
          payload: typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {},
          ...(row.hookEventName ? { hookEventName: row.hookEventName } : {}),
          receivedAt: row.receivedAt,
        });
      }
      adopted.push(pane);
    } catch (error) {
      // Why: a link that kept failing says nothing about the agent: it is left running for the
      // next start to take over, not killed.
      if (error instanceof KeeperCallError && error.code.startsWith('link_')) {
        o.log.error({ err: error, handle: record.handle }, 'a kept pane could not be taken over (link); left running');
        continue;
      }
      o.log.error({ err: error, handle: record.handle }, 'a kept pane could not be taken over; it is ended');
      o.link.kill(info.id);
      o.store.markPaneExited(record.handle, { at: Date.now(), code: null, signal: null, cause: 'keeper-gone' });
    }
  }
  // Why: the host's first answer (`orca status`, the board) shows a taken-over pane's screen as it
  // was, not a blank one while the screen worker is still parsing the replay on a loaded machine.
  await Promise.all(adopted.map((p) => p.status.settle(KEPT_SCREEN_REBUILD_MAX_MS).catch(() => false)));
  return adopted.length;
}
