import type { RelayedEvent } from '@orca/relay/listener';
import { UNKNOWN_PANE_DROP_LOG_INTERVAL_MS } from '../constants.ts';
import type { HostLogger } from '../runtime/logger.ts';

/** The host's checks on accepted events that the trust boundary leaves to it (relay spec §2.2). */
export interface IngestGuards {
  /** Counts an event for a pane the host does not know; logs at most once per interval. */
  unknownPane(event: RelayedEvent): void;
  /** Warns once per pane when the event's `version`/`env` differ from this host's endpoint. */
  checkEndpoint(event: RelayedEvent): void;
  /** Logs the drops counted since the last line (at shutdown). */
  flush(): void;
  /** Events dropped for unknown panes since the start. */
  droppedUnknown(): number;
}

/** Builds the guards; `hookVersion` is the endpoint's `ORCA_AGENT_HOOK_VERSION`. */
export function createIngestGuards(opts: {
  log: HostLogger;
  now: () => number;
  hookVersion: () => string;
}): IngestGuards {
  let total = 0;
  let pending = 0;
  let lastPaneKey = '';
  let lastLogAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Why: bounded by the host's own panes (unknown pane keys never get here).
  const warned = new Set<string>();
  const logDrops = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === 0) return;
    lastLogAt = opts.now();
    opts.log.warn({ dropped: pending, totalDropped: total, lastPaneKey }, 'hook events for unknown panes dropped');
    pending = 0;
  };
  return {
    unknownPane(event) {
      total += 1;
      pending += 1;
      lastPaneKey = event.paneKey;
      const wait = lastLogAt + UNKNOWN_PANE_DROP_LOG_INTERVAL_MS - opts.now();
      if (wait <= 0) logDrops();
      else if (!timer) {
        timer = setTimeout(logDrops, wait);
        timer.unref();
      }
    },
    checkEndpoint(event) {
      if (warned.has(event.paneKey)) return;
      const expectedEnv = event.connectionId === 'local' ? 'local' : 'remote';
      const expectedVersion = opts.hookVersion();
      // Why: a guest relay writes `remote`, which never warns (relay spec §2.2).
      const envMismatch = event.env !== undefined && event.env !== 'remote' && event.env !== expectedEnv;
      const versionMismatch = event.version !== undefined && event.version !== expectedVersion;
      if (!envMismatch && !versionMismatch) return;
      warned.add(event.paneKey);
      opts.log.warn(
        {
          paneKey: event.paneKey,
          connectionId: event.connectionId,
          version: event.version,
          env: event.env,
          expectedVersion,
          expectedEnv,
        },
        'hook event from a mismatched hook endpoint',
      );
    },
    flush: logDrops,
    droppedUnknown: () => total,
  };
}
