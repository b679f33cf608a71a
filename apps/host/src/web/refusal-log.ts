import { WEB_REFUSAL_LOG_MS } from '../constants.ts';
import type { HostLogger } from '../runtime/logger.ts';

/** Counts refused web attempts by reason and logs them as one line per interval, not one per attempt. */
export interface RefusalLog {
  count(reason: string): void;
  /** Logs what is counted and stops the timer. */
  close(): void;
}

/**
 * A refusal counter flushed every `WEB_REFUSAL_LOG_MS`: `{ refused: { unknown_code: 90584, rate_limited: … } }`.
 *
 * @example
 * const refusals = createRefusalLog(log); refusals.count('unknown_code');
 */
export function createRefusalLog(log: HostLogger, intervalMs: number = WEB_REFUSAL_LOG_MS): RefusalLog {
  let counts = new Map<string, number>();
  const flush = (): void => {
    if (counts.size === 0) return;
    log.warn({ refused: Object.fromEntries(counts), intervalMs }, 'web attempts refused');
    counts = new Map();
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return {
    count(reason) {
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    },
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
