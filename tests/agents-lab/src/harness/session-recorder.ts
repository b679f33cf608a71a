import type { LabRun } from './lab-run.ts';

/** One write the agent made into its PTY, `at` ms after the recording started. */
export interface RecordedOutput {
  readonly at: number;
  readonly bytes: string;
}

/** One hook event the host ingested for the pane, with the payload the agent's hook script posted. */
export interface RecordedHook {
  readonly at: number;
  readonly source: string;
  readonly event: string;
  readonly payload: Record<string, unknown>;
}

/** A verdict the host published for the pane. */
export interface RecordedVerdict {
  readonly at: number;
  readonly status: string | null;
}

/** What {@link startRecording} captured: the pane's output, hook events and verdicts on one clock. */
export interface SessionRecording {
  readonly output: readonly RecordedOutput[];
  readonly hooks: readonly RecordedHook[];
  readonly verdicts: readonly RecordedVerdict[];
}

/** A recording in progress: `now()` is its clock; `stop()` returns what it captured. */
export interface Recorder {
  now(): number;
  stop(): SessionRecording;
}

/**
 * Records a lab run from now on: every chunk of the pane's output as the host passed it to its
 * emulator, every verdict change, and (at the end, from the store) every hook event with the
 * payload and arrival time the host stored.
 */
export function startRecording(run: LabRun): Recorder {
  const t0 = Date.now();
  const since = (at: number): number => at - t0;
  const live = run.host.livePane(run.handle);
  const output: RecordedOutput[] = [];
  const verdicts: RecordedVerdict[] = [];
  const offOutput = live.onOutput((bytes) => output.push({ at: since(Date.now()), bytes }));
  const offVerdict = run.host.onVerdict((change) => {
    if (change.handle === run.handle) verdicts.push({ at: since(change.at), status: change.verdict.status });
  });
  return {
    now: () => since(Date.now()),
    stop() {
      offOutput();
      offVerdict();
      const paneKey = run.view().paneKey;
      const hooks = run.host.store
        .hookRows(paneKey)
        .filter((row) => row.receivedAt >= t0)
        .map((row) => ({
          at: since(row.receivedAt),
          source: row.source,
          event: row.hookEventName ?? String((row.envelope.payload as Record<string, unknown>)?.hook_event_name ?? '?'),
          payload: (row.envelope.payload ?? {}) as Record<string, unknown>,
        }));
      return { output, hooks, verdicts };
    },
  };
}
