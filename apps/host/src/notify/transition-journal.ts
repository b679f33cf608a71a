import type { RecordedEvidence, VerdictExplanation } from '@orca/agent-status';
import type { LivePane, Verdict } from '../panes/live-pane.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { Store } from '../store/store.ts';

/** True when the verdict says a human is needed. */
export function isWaiting(v: Verdict): boolean {
  return v.status === 'permission' || (typeof v.agentWait === 'object' && v.agentWait !== null);
}

/** A verdict change with why it happened. */
export interface Transition {
  readonly handle: string;
  readonly at: number;
  readonly from: Verdict['status'] | null;
  readonly to: Verdict['status'];
  readonly verdict: Verdict;
  readonly explanation: VerdictExplanation;
  /** How the pane ended, when this transition is its exit. */
  readonly exit?: { code: number | null; signal: number | null; cause: string };
  /** The agent its hooks named (null: none known; the screen alone decides its waits). */
  readonly agent: string | null;
}

/** Records each verdict change with its explanation (bounded per pane) and tells listeners after. */
export interface TransitionJournal {
  record(pane: LivePane, verdict: Verdict, previous: Verdict | null, at: number): void;
  onTransition(listener: (t: Transition, pane: LivePane) => void): () => void;
  /** Resolves once every transition recorded so far is explained and stored. */
  idle(): Promise<void>;
}

/**
 * The journal of verdict transitions. Each is explained from the analysis it was published from
 * (else from the pane's evidence right after), in order per pane, stored with the evidence (`TRANSITIONS_KEPT_PER_PANE` per
 * pane) and handed to listeners (notifications).
 */
export function createTransitionJournal(o: {
  store: Store;
  log: HostLogger;
  keepPerPane: number;
  /** See `TRANSITION_EVIDENCE_MIN_INTERVAL_MS`. */
  evidenceMinIntervalMs: number;
  closed: () => boolean;
}): TransitionJournal {
  const listeners = new Set<(t: Transition, pane: LivePane) => void>();
  const chains = new Map<string, Promise<void>>();
  /** When each pane's last transition kept its evidence. */
  const evidenceKeptAt = new Map<string, number>();
  /** A wait and a pane's end always keep theirs; other changes at most once per interval per pane. */
  const keepsEvidence = (handle: string, verdict: Verdict, at: number, exited: boolean): boolean => {
    const last = evidenceKeptAt.get(handle);
    const keep = exited || isWaiting(verdict) || last === undefined || at - last >= o.evidenceMinIntervalMs;
    if (keep) evidenceKeptAt.set(handle, at);
    if (exited) evidenceKeptAt.delete(handle);
    return keep;
  };
  return {
    record(pane, verdict, previous, at) {
      const handle = pane.record.handle;
      // Why: read now; the explanation below comes a turn later, when later changes may have landed.
      const exit = pane.exit
        ? { code: pane.exit.code, signal: pane.exit.signal, cause: pane.exit.cause ?? 'exit' }
        : undefined;
      // Why: the analysis the verdict was published from, taken now (a later one may replace it).
      const analysis = pane.verdict === verdict ? pane.verdictAnalysis : null;
      const run = async (): Promise<void> => {
        const { explanation, recorded } = await pane.status.explain(analysis ?? undefined);
        const t: Transition = {
          handle,
          at,
          from: previous?.status ?? null,
          to: verdict.status,
          verdict,
          explanation,
          agent: pane.status.agent(),
          ...(exit ? { exit } : {}),
        };
        if (!o.closed()) {
          o.store.insertTransition(
            {
              handle,
              at,
              fromStatus: t.from,
              toStatus: t.to,
              explanation: JSON.stringify({ ...explanation, published: verdict }),
              // Why: '' = not kept (TRANSITION_EVIDENCE_MIN_INTERVAL_MS); `--replay` says so.
              recorded: keepsEvidence(handle, verdict, at, exit !== undefined)
                ? JSON.stringify(recorded satisfies RecordedEvidence)
                : '',
            },
            o.keepPerPane,
          );
        }
        for (const l of listeners) {
          try {
            l(t, pane);
          } catch (error) {
            o.log.error({ err: error }, 'transition listener failed');
          }
        }
      };
      const next = (chains.get(handle) ?? Promise.resolve())
        .then(run)
        .catch((error: unknown) => o.log.warn({ err: error, handle }, 'transition not explained'));
      chains.set(handle, next);
      void next.then(() => {
        if (chains.get(handle) === next) chains.delete(handle);
      });
    },
    onTransition(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {
      await Promise.all([...chains.values()]);
    },
  };
}
