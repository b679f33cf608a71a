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
   * The newest verdict this host published for `handle`, and when: what the view of a live pane
   * shows (null: not evaluated yet, also for a pane taken over from the keeper whose stored verdict
   * is the previous host's).
   */
  current(handle: string): { readonly verdict: Verdict; readonly at: number } | null;
  /**
   * Like {@link current}, else the newest one stored (read once): what the view of an exited pane
   * shows. Every view (`orca ls`, `orca status`, `terminal.show`, the board) reads one of these two.
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
  const published = new Map<string, { verdict: Verdict; at: number }>();
  const stored = new Map<string, { verdict: Verdict; at: number } | null>();
  return {
    publish(pane, verdict, previous) {
      if (!o.publishing()) return;
      const at = o.now();
      if (previous?.status === 'working' && verdict.status === 'idle') o.onTurnEnd(pane);
      o.store.insertVerdict({
        handle: pane.record.handle,
        at,
        status: verdict.status,
        isRunningAgent: verdict.isRunningAgent,
        agentWait: storedWait(verdict),
      });
      published.set(pane.record.handle, { verdict, at });
      for (const l of listeners) l({ handle: pane.record.handle, at, verdict });
      o.onPublished(pane, verdict, previous, at);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    current: (handle) => published.get(handle) ?? null,
    latest(handle) {
      const mine = published.get(handle);
      if (mine) return mine;
      const known = stored.get(handle);
      if (known !== undefined) return known;
      const row = o.store.latestVerdict(handle);
      const found = row
        ? { verdict: verdictFromStored(row.status, row.isRunningAgent, row.agentWait), at: row.at }
        : null;
      stored.set(handle, found);
      return found;
    },
    forget(handle) {
      published.delete(handle);
      stored.delete(handle);
    },
  };
}
