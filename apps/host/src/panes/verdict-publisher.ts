import type { Store } from '../store/store.ts';
import { storedWait, verdictFromStored } from '../store/stored-verdict.ts';
import type { LivePane, Verdict } from './live-pane.ts';

/** A verdict change as published to listeners (`status.watch`, the board, the demo). */
export interface VerdictChange {
  readonly handle: string;
  readonly at: number;
  readonly verdict: Verdict;
}

/**
 * Where every verdict a pane computes goes, one way: stamped, stored, broadcast to subscribers,
 * then handed to the host's followers (the turn-end command hooks, the transition journal).
 */
export interface VerdictPublisher {
  /** The pane registry's `onVerdict`. */
  publish(pane: LivePane, verdict: Verdict, previous: Verdict | null): void;
  /** Every published change; returns the unsubscribe. */
  subscribe(listener: (change: VerdictChange) => void): () => void;
  /**
   * The newest published verdict of `handle` and when it was published: the one source every view
   * reads (`orca ls`, `orca status`, `terminal.show`, the board), live pane or exited. One
   * published before this host started is read from the store once.
   */
  latest(handle: string): { readonly verdict: Verdict; readonly at: number } | null;
  /** Drops what it holds of a removed pane. */
  forget(handle: string): void;
}

/** Options of {@link createVerdictPublisher}. */
export interface VerdictPublisherOptions {
  readonly store: Pick<Store, 'insertVerdict' | 'latestVerdict'>;
  readonly now: () => number;
  /**
   * False while the host stops: verdicts computed then describe the kill, not the agent; the last
   * real one is kept.
   */
  readonly publishing: () => boolean;
  /** A working → idle change (the users' turn-end command hooks). */
  readonly onTurnEnd: (pane: LivePane) => void;
  /** After the change is stored and broadcast (the transition journal). */
  readonly onPublished: (pane: LivePane, verdict: Verdict, previous: Verdict | null, at: number) => void;
}

/**
 * Builds the publisher.
 *
 * @example
 * const verdicts = createVerdictPublisher({ store, now, publishing: () => !stopping, onTurnEnd, onPublished });
 * createPaneRegistry({ …, onVerdict: verdicts.publish });
 */
export function createVerdictPublisher(o: VerdictPublisherOptions): VerdictPublisher {
  const listeners = new Set<(change: VerdictChange) => void>();
  // Why: bounded by the panes the host lists (a removed pane is forgotten).
  const newest = new Map<string, { verdict: Verdict; at: number } | null>();
  return {
    publish(pane, verdict, previous) {
      if (!o.publishing()) return;
      const at = o.now();
      pane.verdictAt = at;
      if (previous?.status === 'working' && verdict.status === 'idle') o.onTurnEnd(pane);
      o.store.insertVerdict({
        handle: pane.record.handle,
        at,
        status: verdict.status,
        isRunningAgent: verdict.isRunningAgent,
        agentWait: storedWait(verdict),
      });
      newest.set(pane.record.handle, { verdict, at });
      for (const l of listeners) l({ handle: pane.record.handle, at, verdict });
      o.onPublished(pane, verdict, previous, at);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    latest(handle) {
      const known = newest.get(handle);
      if (known !== undefined) return known;
      const stored = o.store.latestVerdict(handle);
      const found = stored
        ? { verdict: verdictFromStored(stored.status, stored.isRunningAgent, stored.agentWait), at: stored.at }
        : null;
      newest.set(handle, found);
      return found;
    },
    forget(handle) {
      newest.delete(handle);
    },
  };
}
