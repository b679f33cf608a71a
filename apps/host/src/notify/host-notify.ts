import { type RecordedEvidence, replayExplanation, type VerdictExplanation } from '@orca/agent-status';
import { TRANSITION_EVIDENCE_MIN_INTERVAL_MS, TRANSITIONS_KEPT_PER_PANE } from '../constants.ts';
import type { LivePane, Verdict } from '../panes/live-pane.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { NotifyAttemptRecord, Store } from '../store/store.ts';
import { notifyConfigReader } from './notify-config.ts';
import { createNotifyDelivery, type DeliveryResult } from './notify-delivery.ts';
import { createNotifyEngine, isWaiting } from './notify-engine.ts';
import type { NotifyEvent } from './notify-event.ts';
import { createTransitionJournal, type TransitionJournal } from './transition-journal.ts';

/** One stored transition as `orca status explain` shows it. */
export interface ExplainedTransition {
  readonly at: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly published: Verdict;
  readonly explanation: VerdictExplanation;
  /**
   * The stored evidence evaluated again now (with `replay`), and whether it gives the same verdict;
   * `kept: false` when this transition did not keep its evidence (TRANSITION_EVIDENCE_MIN_INTERVAL_MS).
   */
  readonly replay?: { verdict: Verdict; same: boolean } | { kept: false };
}

/** The host's status journal and notifications. */
export interface HostNotify {
  readonly journal: TransitionJournal;
  explain(handle: string, opts: { limit: number; replay: boolean }): Promise<ExplainedTransition[]>;
  test(sink?: string): Promise<DeliveryResult[]>;
  log(limit: number): NotifyAttemptRecord[];
  /** Every event for the boards (`notify.watch`); returns the unsubscribe. */
  onBoardEvent(listener: (event: NotifyEvent) => void): () => void;
  stop(): void;
}

/** Wires the transition journal, the notification engine and its delivery for one host. */
export function createHostNotify(o: {
  store: Store;
  log: HostLogger;
  now: () => number;
  configFile: string;
  closed: () => boolean;
}): HostNotify {
  const boards = new Set<(event: NotifyEvent) => void>();
  const journal = createTransitionJournal({
    store: o.store,
    log: o.log,
    keepPerPane: TRANSITIONS_KEPT_PER_PANE,
    evidenceMinIntervalMs: TRANSITION_EVIDENCE_MIN_INTERVAL_MS,
    closed: o.closed,
  });
  const config = notifyConfigReader(o.configFile, (error) =>
    o.log.error({ err: error }, 'notify.json is not valid; the last good rules stay'),
  );
  const delivery = createNotifyDelivery({
    store: o.store,
    log: o.log,
    now: o.now,
    closed: o.closed,
    context: {
      env: process.env,
      toBoards(event) {
        for (const l of boards) l(event);
        return boards.size;
      },
    },
  });
  const engine = createNotifyEngine({
    config,
    delivery,
    log: o.log,
    now: o.now,
    explainAgain: async (pane: LivePane) => {
      const { explanation } = await pane.status.explain();
      return { screenShowsPrompt: explanation.screenShowsPrompt, waiting: isWaiting(explanation.verdict) };
    },
  });
  journal.onTransition((t, pane) => engine.onTransition(t, pane));
  return {
    journal,
    async explain(handle, opts) {
      await journal.idle();
      const out: ExplainedTransition[] = [];
      for (const r of o.store.transitions(handle, opts.limit)) {
        const { published, ...explanation } = JSON.parse(r.explanation) as VerdictExplanation & { published: Verdict };
        const entry: ExplainedTransition = { at: r.at, from: r.fromStatus, to: r.toStatus, published, explanation };
        if (!opts.replay) out.push(entry);
        else if (r.recorded === '') out.push({ ...entry, replay: { kept: false } });
        else {
          const verdict = await replayExplanation(JSON.parse(r.recorded) as RecordedEvidence, { wait: true });
          out.push({
            ...entry,
            replay: { verdict, same: JSON.stringify(verdict) === JSON.stringify(explanation.verdict) },
          });
        }
      }
      return out;
    },
    test: (sink) => engine.test(sink),
    log: (limit) => o.store.notifyAttempts(limit),
    onBoardEvent(listener) {
      boards.add(listener);
      return () => boards.delete(listener);
    },
    stop: () => engine.stop(),
  };
}
