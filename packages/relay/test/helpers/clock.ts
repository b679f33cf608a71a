import { createManualClock } from '@orca/wire/relay-frames';
import type { RelayClock } from '../../src/listener/types.ts';

/** A manual clock: timers fire only on `advance` (wire's, started at a realistic epoch). */
export interface ManualClock extends RelayClock {
  advance(ms: number): void;
  pending(): number;
}

/** Create a manual clock starting at `start` epoch ms. */
export function manualClock(start = 1_700_000_000_000): ManualClock {
  return createManualClock(start);
}
