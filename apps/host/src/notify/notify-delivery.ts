import { NOTIFY_ATTEMPTS_KEPT, NOTIFY_GIVE_UP_MS, NOTIFY_RETRY_FIRST_MS, NOTIFY_RETRY_MAX_MS } from '../constants.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { Store } from '../store/store.ts';
import type { NotifySink } from './notify-config.ts';
import type { NotifyEvent } from './notify-event.ts';
import { deliverToSink, type SinkContext, type SinkOutcome } from './notify-sinks.ts';

/** The last attempt of one event at one sink. */
export interface DeliveryResult {
  readonly sink: string;
  readonly outcome: 'delivered' | 'failed' | 'skipped';
  readonly attempts: number;
  readonly error?: string;
}

/** Delivers events to named sinks: in order per sink, retried with backoff, every attempt stored. */
export interface NotifyDelivery {
  /**
   * Queues `event` for sink `name`; resolves with how it ended (delivered, given up, skipped).
   * `once`: a single attempt, no retry (`orca notify test`).
   */
  send(name: string, sink: NotifySink, event: NotifyEvent, opts?: { once?: boolean }): Promise<DeliveryResult>;
  /** Stops every retry (host stop): queued events are given up. */
  stop(): void;
}

/** The delay before retry `n` (1-based): 1 s doubling to at most 30 s. */
export function retryDelay(n: number): number {
  return Math.min(NOTIFY_RETRY_MAX_MS, NOTIFY_RETRY_FIRST_MS * 2 ** Math.max(0, Math.min(n - 1, 16)));
}

/**
 * Creates the delivery queues. Each sink delivers one event at a time in the order they were
 * sent (a `resolved` never overtakes its `waiting`); a failed attempt is retried after
 * {@link retryDelay} until the event is `NOTIFY_GIVE_UP_MS` old. Each attempt is stored
 * (`orca notify log`): sink, outcome, HTTP status, latency.
 */
export function createNotifyDelivery(o: {
  store: Store;
  log: HostLogger;
  now: () => number;
  context: SinkContext;
  closed: () => boolean;
  deliver?: (sink: NotifySink, event: NotifyEvent, ctx: SinkContext) => Promise<SinkOutcome>;
}): NotifyDelivery {
  const deliver = o.deliver ?? deliverToSink;
  const tails = new Map<string, Promise<unknown>>();
  const timers = new Set<{ timer: ReturnType<typeof setTimeout>; wake: () => void }>();
  let stopped = false;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          timers.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      entry.timer.unref?.();
      timers.add(entry);
    });
  const attemptAll = async (
    name: string,
    sink: NotifySink,
    event: NotifyEvent,
    once: boolean,
  ): Promise<DeliveryResult> => {
    for (let attempt = 1; ; attempt++) {
      const started = o.now();
      const result = await deliver(sink, event, o.context);
      const latencyMs = o.now() - started;
      const givingUp = result.outcome === 'retry' && (once || stopped || o.now() - event.at >= NOTIFY_GIVE_UP_MS);
      const outcome = result.outcome === 'retry' ? (givingUp ? 'failed' : 'retrying') : result.outcome;
      if (!o.closed()) {
        o.store.insertNotifyAttempt(
          {
            eventId: event.id,
            handle: event.handle,
            kind: event.kind,
            sink: name,
            attempt,
            at: started,
            outcome,
            status: 'status' in result && result.status !== undefined ? result.status : null,
            latencyMs,
            error: 'error' in result ? result.error : null,
          },
          NOTIFY_ATTEMPTS_KEPT,
        );
      }
      if (result.outcome === 'delivered') return { sink: name, outcome: 'delivered', attempts: attempt };
      if (result.outcome === 'skipped')
        return { sink: name, outcome: 'skipped', attempts: attempt, error: result.error };
      if (givingUp) {
        o.log.warn({ sink: name, event: event.id, attempts: attempt, error: result.error }, 'notification given up');
        return { sink: name, outcome: 'failed', attempts: attempt, error: result.error };
      }
      await sleep(retryDelay(attempt));
      if (stopped) return { sink: name, outcome: 'failed', attempts: attempt, error: 'the host stopped' };
    }
  };
  return {
    send(name, sink, event, opts = {}) {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(() => attemptAll(name, sink, event, opts.once === true));
      const tail = run.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
    stop() {
      stopped = true;
      for (const t of timers) {
        clearTimeout(t.timer);
        t.wake();
      }
      timers.clear();
    },
  };
}
