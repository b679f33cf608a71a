// Where the fleet's hook events spent their time on the way to a verdict: the host's timing of each
// event (HostOptions.hookTiming) joined with the driver's send time, cut into stages.
import type { HookTiming } from '../../src/status/hook-timing.ts';

/** The stages of one hook event, in order (ms each). */
export const STAGES = [
  'client',
  'listener',
  'store commit',
  'evaluation queue',
  'screen settle',
  'evaluation',
  'publish',
] as const;
export type Stage = (typeof STAGES)[number];

/** What each stage spans, for the report. */
export const STAGE_SPANS: Readonly<Record<Stage | 'total', string>> = {
  client: 'POST begun → its request written out by the client (the driver process)',
  listener: 'request written → through the trust boundary into its pane',
  'store commit': 'row queued → committed (the 204 waits for it; the verdict does not)',
  'evaluation queue': 'in its pane → the evaluation that reads it begins',
  'screen settle': 'that evaluation waiting for the screen worker',
  evaluation: 'fusion of the evidence into a verdict',
  publish: 'verdict → stored and told to listeners',
  total: 'request written → verdict published (the client stage apart)',
};

/** Stage durations of one event (ms); null where the stage did not happen. */
export type StageTimes = Record<Stage | 'total', number | null>;

const span = (from: number | null, to: number | null): number | null =>
  from === null || to === null ? null : Math.max(0, to - from);

/**
 * Cuts one event's timing into stages; `sentAt` is when the driver began its POST, `writtenAt` when
 * the request left the driver (absent: the listener stage starts at `sentAt`).
 */
export function stagesOf(t: HookTiming, sentAt: number, writtenAt?: number): StageTimes {
  const written = writtenAt === undefined ? sentAt : Math.min(Math.max(writtenAt, sentAt), t.ingestedAt);
  return {
    client: span(sentAt, written),
    listener: span(written, t.ingestedAt),
    'store commit': span(t.ingestedAt, t.committedAt),
    'evaluation queue': span(t.ingestedAt, t.evaluationAt),
    'screen settle': span(t.evaluationAt, t.settledAt),
    evaluation: span(t.settledAt, t.evaluatedAt),
    publish: span(t.evaluatedAt, t.publishedAt),
    total: span(written, t.publishedAt),
  };
}

/** The p-th percentile (nearest rank) of `values`, or null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
}

/** Per stage: p99 over every event that went through it, and the stages of the slowest event. */
export interface StageSummary {
  readonly events: number;
  readonly p99: Record<Stage | 'total', number | null>;
  readonly slowest: StageTimes | null;
  /** Events whose evaluation waited for the screen worker. */
  readonly screenWaited: number;
}

/** Summarises the stages of `timed` (each timing with its driver send time). */
export function summariseStages(
  timed: readonly { timing: HookTiming; sentAt: number; writtenAt?: number }[],
): StageSummary {
  const all = timed.map((t) => stagesOf(t.timing, t.sentAt, t.writtenAt));
  const keys = [...STAGES, 'total'] as const;
  const p99 = Object.fromEntries(
    keys.map((k) => [
      k,
      percentile(
        all.map((s) => s[k]).filter((v): v is number => v !== null),
        99,
      ),
    ]),
  ) as Record<Stage | 'total', number | null>;
  const slowest = all.reduce<StageTimes | null>(
    (worst, s) => ((s.total ?? -1) > (worst?.total ?? -1) ? s : worst),
    null,
  );
  return { events: all.length, p99, slowest, screenWaited: timed.filter((t) => t.timing.screenWaited).length };
}
