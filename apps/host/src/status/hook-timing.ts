import { performance } from 'node:perf_hooks';
import type { RelayedEvent } from '@orca/relay/listener';

/** The timing clock: ms since the epoch with sub-ms resolution (comparable across processes). */
export const timingNow = (): number => performance.timeOrigin + performance.now();

/**
 * Where one hook event's time went between the listener and the verdict evaluated for it, as
 * moments on the timing clock (ms). Null: the stage has not happened (yet).
 */
export interface HookTiming {
  readonly handle: string;
  readonly event: RelayedEvent;
  /** The listener handed the decoded event to the host. */
  readonly arrivedAt: number;
  /** Through the trust boundary, its row queued for the store and fed to its pane. */
  readonly ingestedAt: number;
  /** Its store row was committed (its 204 could go out). */
  committedAt: number | null;
  /** The evaluation that read its row began. */
  evaluationAt: number | null;
  /** That evaluation stopped waiting for the pane's screen (equal to {@link evaluationAt} when it did not wait). */
  settledAt: number | null;
  /** Fusion produced the verdict. */
  evaluatedAt: number | null;
  /** The verdict was published, or found equal to the one already published. */
  publishedAt: number | null;
  /** The evaluation waited for the screen worker before deciding. */
  screenWaited: boolean;
  /** The verdict differed from the one published before (false: nothing new to publish). */
  changed: boolean;
}

/** Receives each hook event's timing once its evaluation finished (the commit may be filled in later). */
export type HookTimingSink = (timing: HookTiming) => void;

/** The marks one evaluation sets on the hook events it reads. */
export interface EvaluationMarks {
  settled(waited: boolean): void;
  evaluated(): void;
  finished(changed: boolean): void;
}

/** A pane's side of the timing: hook events wait here for the evaluation that reads them. */
export interface PaneHookTiming {
  /** The event reached the pane (its row is in the pane's evidence from now on). */
  arrived(timing: HookTiming): void;
  /** An evaluation begins: it takes every event that arrived before it. */
  begin(): EvaluationMarks;
}

const NO_MARKS: EvaluationMarks = { settled: () => undefined, evaluated: () => undefined, finished: () => undefined };

/**
 * Creates the timing of one pane; `sink` undefined makes every call free (the default: timing is
 * for the fleet bench and diagnostics).
 *
 * @example
 * const timing = createPaneHookTiming(now, (t) => samples.push(t));
 * const marks = timing.begin(); marks.settled(false); marks.evaluated(); marks.finished(true);
 */
export function createPaneHookTiming(now: () => number, sink: HookTimingSink | undefined): PaneHookTiming {
  if (!sink) return { arrived: () => undefined, begin: () => NO_MARKS };
  let waiting: HookTiming[] = [];
  return {
    arrived(timing) {
      waiting.push(timing);
    },
    begin() {
      if (waiting.length === 0) return NO_MARKS;
      const taken = waiting;
      waiting = [];
      const at = now();
      for (const t of taken) t.evaluationAt = at;
      return {
        settled(waited) {
          const s = now();
          for (const t of taken) {
            t.settledAt = s;
            t.screenWaited = waited;
          }
        },
        evaluated() {
          const e = now();
          for (const t of taken) t.evaluatedAt = e;
        },
        finished(changed) {
          const p = now();
          for (const t of taken) {
            t.publishedAt = p;
            t.changed = changed;
            sink(t);
          }
        },
      };
    },
  };
}

/** A new timing record for an event the listener handed over at `arrivedAt`. */
export function newHookTiming(handle: string, event: RelayedEvent, arrivedAt: number, ingestedAt: number): HookTiming {
  return {
    handle,
    event,
    arrivedAt,
    ingestedAt,
    committedAt: null,
    evaluationAt: null,
    settledAt: null,
    evaluatedAt: null,
    publishedAt: null,
    screenWaited: false,
    changed: false,
  };
}

/**
 * Starts timing an event the local listener handed over at `arrivedAt`, once the ingest fed it to
 * `pane` (a running pane; others are not timed); `committed` is the store commit its 204 awaits.
 */
export function timeHookEvent(
  pane: { readonly handle: string; readonly timing: PaneHookTiming },
  event: RelayedEvent,
  arrivedAt: number,
  committed: Promise<void>,
): void {
  const timing = newHookTiming(pane.handle, event, arrivedAt, timingNow());
  pane.timing.arrived(timing);
  committed.then(
    () => {
      timing.committedAt = timingNow();
    },
    () => undefined,
  );
}
