import type { QueueItemView } from '@orca/wire/contract';
import { InvalidArgumentError } from '@orca/wire/rpc';
import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';
import {
  QUEUE_EXPIRES_MAX_MS,
  QUEUE_FINISHED_KEPT_PER_PANE,
  QUEUE_MAX_PENDING_PER_PANE,
  QUEUE_PROOF_WINDOW_MS,
} from '../constants.ts';
import { isRefusal, refusal } from '../errors.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { QueueItemRecord, QueueItemUpdate, QueueState, Store } from '../store/store.ts';
import type { Deliveries } from './deliveries.ts';
import { DeliveryAborted, DeliveryInterrupted, type DispatchReceipt } from './delivery-types.ts';
import { deliverPrompt } from './dispatch.ts';
import type { LivePane } from './live-pane.ts';
import { checkPrompt } from './prompt-limits.ts';
import { proofFromStoredHooks } from './prompt-proof-stored.ts';

/** A queued prompt as clients see it (`queue.*`, `orca queue ls --json`): the contract's view. */
export type { QueueItemView } from '@orca/wire/contract';

/** Options of {@link PromptQueue.add}. */
export interface QueueAddOptions {
  /** The item expires if not delivered this long after it was queued (ms). */
  readonly expiresInMs?: number;
  readonly source?: string;
}

/**
 * The host's per-pane prompt queues: durable (SQLite), delivered in order by one worker per pane,
 * each prompt only when the agent is ready (after its turn ended and after any dialog a human
 * answered; never into a menu), each its own user turn with its own receipt.
 */
export interface PromptQueue {
  add(handle: string, prompt: string, opts?: QueueAddOptions): QueueItemView;
  /** A pane's items (every pane's without a handle): pending in queue order, then the finished, newest first. */
  list(handle?: string): QueueItemView[];
  get(id: number): QueueItemView;
  /** Cancels a queued item (refused with `queue_item_not_queued` once its text is being written). */
  remove(id: number): QueueItemView;
  /** Moves a queued item to `position` (1 = next) among its pane's queued items; returns the pane's pending list. */
  move(id: number, position: number): QueueItemView[];
  /** Resolves with the item once it is final (submitted, failed, cancelled, expired); `timeout` refusal after `timeoutMs`. */
  wait(id: number, timeoutMs: number, signal?: AbortSignal): Promise<QueueItemView>;
  /** Every change of an item (added, moved, a new state). */
  onChange(listener: (item: QueueItemView) => void): () => void;
  /** Pending items per live pane handle (the board's queue length). */
  pendingCount(handle: string): number;
  /** The pane exited: its queued items fail (`terminal_guard_not_writable`). */
  paneExited(handle: string): void;
  /** Settles what a previous run left pending (see README "Prompt queue"); starts the workers. */
  recover(): void;
  /** Stops every worker; pending items stay pending in the store for the next start. */
  stop(): void;
}

/** Options of {@link createPromptQueue}. */
export interface PromptQueueOptions {
  readonly store: Store;
  readonly now: () => number;
  readonly log: HostLogger;
  readonly commandHooks: Pick<HostCommandHooks, 'beforeSubmitPrompt'>;
  /** The live pane of a handle, or undefined (none in this run). */
  readonly livePane: (handle: string) => LivePane | undefined;
  /** The host's deliveries in flight and its stop signal. */
  readonly deliveries: Deliveries;
}

const FINAL: ReadonlySet<QueueState> = new Set(['submitted', 'failed', 'cancelled', 'expired']);

/** Builds the queue service over the store and the live panes. */
export function createPromptQueue(o: PromptQueueOptions): PromptQueue {
  const listeners = new Set<(item: QueueItemView) => void>();
  const expiryTimers = new Map<number, ReturnType<typeof setTimeout>>();
  /** The item each pane's worker is delivering or waiting to deliver, and how to stop it. */
  const heads = new Map<string, { id: number; abort: AbortController; waitingFor: string | null }>();
  const draining = new Set<string>();
  let stopped = false;

  const view = (r: QueueItemRecord, position?: number): QueueItemView => ({
    id: r.id,
    handle: r.handle,
    state: r.state,
    prompt: r.prompt,
    source: r.source,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(position !== undefined && !FINAL.has(r.state) ? { position } : {}),
    ...(r.expiresAt !== null ? { expiresAt: r.expiresAt } : {}),
    ...(r.deliveringAt !== null ? { deliveringAt: r.deliveringAt } : {}),
    ...(r.receipt ? { receipt: r.receipt as unknown as DispatchReceipt } : {}),
    ...(r.errorCode !== null ? { error: { code: r.errorCode, message: r.errorMessage ?? '' } } : {}),
    ...waitingOf(r),
  });
  const waitingOf = (r: QueueItemRecord): { waitingFor?: string } => {
    const head = heads.get(r.handle);
    return head?.id === r.id && head.waitingFor && r.state === 'queued' ? { waitingFor: head.waitingFor } : {};
  };
  const views = (records: readonly QueueItemRecord[]): QueueItemView[] => {
    const place = new Map<string, number>();
    return records.map((r) => {
      if (FINAL.has(r.state)) return view(r);
      const n = (place.get(r.handle) ?? 0) + 1;
      place.set(r.handle, n);
      return view(r, n);
    });
  };
  const viewOf = (id: number): QueueItemView => {
    const record = o.store.getQueueItem(id);
    if (!record)
      throw refusal('queue_item_unknown', `no queued prompt ${id}; run \`orca queue ls\` to see them`, { id });
    return views(o.store.listQueueItems(record.handle)).find((v) => v.id === id) ?? view(record);
  };
  const emit = (id: number, known?: QueueItemRecord): void => {
    if (listeners.size === 0) return;
    const record = o.store.getQueueItem(id) ?? known;
    if (!record) return;
    const item = views(o.store.listQueueItems(record.handle)).find((v) => v.id === id) ?? view(record);
    for (const l of listeners) l(item);
  };
  const emitPane = (handle: string): void => {
    if (listeners.size === 0) return;
    for (const item of views(o.store.listQueueItems(handle)).filter((v) => !FINAL.has(v.state)))
      for (const l of listeners) l(item);
  };

  /** One state change, only from `from`; final states clear the expiry timer and prune history. */
  const transition = (id: number, update: QueueItemUpdate, from: readonly QueueState[]): boolean => {
    if (!o.store.updateQueueItem(id, update, from)) return false;
    const record = o.store.getQueueItem(id);
    emit(id);
    if (FINAL.has(update.state)) {
      const timer = expiryTimers.get(id);
      if (timer) clearTimeout(timer);
      expiryTimers.delete(id);
      // Why: after the event, and by when items finished, so the item that just finished stays.
      if (record) o.store.pruneFinishedQueueItems(record.handle, QUEUE_FINISHED_KEPT_PER_PANE);
    }
    return true;
  };
  const stopHead = (handle: string, id: number): void => {
    const head = heads.get(handle);
    if (head?.id === id) head.abort.abort();
  };

  const scheduleExpiry = (r: QueueItemRecord): void => {
    if (r.expiresAt === null || r.state !== 'queued') return;
    const timer = setTimeout(
      () => {
        expiryTimers.delete(r.id);
        if (stopped) return;
        try {
          expire();
        } catch (error) {
          o.log.error({ err: error, id: r.id }, 'expiring a queued prompt failed');
        }
      },
      Math.max(0, r.expiresAt - o.now()),
    );
    const expire = (): void => {
      const expired = transition(
        r.id,
        {
          state: 'expired',
          at: o.now(),
          error: { code: 'timeout', message: 'the prompt expired before the agent was ready for it' },
        },
        ['queued'],
      );
      if (expired) stopHead(r.handle, r.id);
    };
    timer.unref?.();
    expiryTimers.set(r.id, timer);
  };

  const failPending = (handle: string, code: string, message: string, states: readonly QueueState[]): void => {
    for (const r of o.store.listQueueItems(handle)) {
      if (states.includes(r.state))
        transition(r.id, { state: 'failed', at: o.now(), error: { code, message } }, [r.state]);
    }
  };

  const deliver = async (pane: LivePane, item: QueueItemRecord, abort: AbortController): Promise<void> => {
    try {
      const receipt = await deliverPrompt(pane, item.handle, item.prompt, {
        now: o.now,
        commandHooks: o.commandHooks,
        atDialog: 'wait',
        deadline: null,
        proofWindowMs: QUEUE_PROOF_WINDOW_MS,
        signal: abort.signal,
        stopping: o.deliveries.stopping,
        itemId: item.id,
        onWaiting: (reason) => {
          const head = heads.get(item.handle);
          if (head?.id !== item.id || head.waitingFor === reason) return;
          head.waitingFor = reason;
          emit(item.id);
        },
        onWriting: () => {
          // Why: a removal, expiry or move that won the race stops it here, with nothing written.
          if (stopped || abort.signal.aborted) throw new DeliveryAborted();
          if (!transition(item.id, { state: 'delivering', at: o.now() }, ['queued'])) throw new DeliveryAborted();
        },
      });
      transition(item.id, { state: 'submitted', at: o.now(), receipt: receipt as unknown as Record<string, unknown> }, [
        'delivering',
      ]);
    } catch (error) {
      // Why: interrupted by a stopping host after its text went in: it stays `delivering`; the next
      // start settles it from a stored or spooled prompt hook, and never writes it again.
      if (error instanceof DeliveryAborted || error instanceof DeliveryInterrupted || stopped) return;
      const code = isRefusal(error) ? error.code : 'prompt_not_submitted';
      const message = error instanceof Error ? error.message : String(error);
      if (!isRefusal(error))
        o.log.error({ err: error, handle: item.handle, id: item.id }, 'queued prompt delivery failed');
      transition(item.id, { state: 'failed', at: o.now(), error: { code, message } }, ['queued', 'delivering']);
    }
  };

  /** The pane's worker: one item at a time, in queue order, until none is queued. */
  const drain = async (handle: string): Promise<void> => {
    if (draining.has(handle) || stopped) return;
    draining.add(handle);
    try {
      for (;;) {
        if (stopped) return;
        const next = o.store.listQueueItems(handle).find((r) => r.state === 'queued');
        if (!next) return;
        const pane = o.livePane(handle);
        if (!pane || pane.exit) {
          failPending(handle, 'terminal_guard_not_writable', `pane ${handle} has exited; the prompt was not sent`, [
            'queued',
          ]);
          return;
        }
        const abort = new AbortController();
        heads.set(handle, { id: next.id, abort, waitingFor: null });
        try {
          await o.deliveries.track(deliver(pane, next, abort));
        } catch (error) {
          // Why: one item's unexpected failure must not leave the rest of the queue without a worker.
          o.log.error({ err: error, handle, id: next.id }, 'queued prompt delivery failed unexpectedly');
          try {
            transition(
              next.id,
              { state: 'failed', at: o.now(), error: { code: 'prompt_not_submitted', message: String(error) } },
              ['queued', 'delivering'],
            );
          } catch {
            return;
          }
        } finally {
          heads.delete(handle);
        }
      }
    } finally {
      draining.delete(handle);
    }
  };
  const kick = (handle: string): void => {
    void drain(handle).catch((error: unknown) => o.log.error({ err: error, handle }, 'prompt queue worker failed'));
  };

  return {
    add(handle, prompt, opts = {}) {
      checkPrompt(prompt);
      const expiresInMs = opts.expiresInMs;
      if (
        expiresInMs !== undefined &&
        (!Number.isFinite(expiresInMs) || expiresInMs <= 0 || expiresInMs > QUEUE_EXPIRES_MAX_MS)
      ) {
        throw new InvalidArgumentError(`expiresInMs must be > 0 and ≤ ${QUEUE_EXPIRES_MAX_MS} ms (7 days)`);
      }
      const pane = o.livePane(handle);
      if (!pane) {
        throw refusal('terminal_handle_stale', `no live pane ${handle}; run \`orca ls\` to see the panes`, { handle });
      }
      if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`, { handle });
      const pending = o.store.countPendingQueueItems(handle);
      if (pending >= QUEUE_MAX_PENDING_PER_PANE) {
        throw refusal(
          'queue_full',
          `${handle} has ${pending} prompts waiting, the most a pane queues (QUEUE_MAX_PENDING_PER_PANE = ${QUEUE_MAX_PENDING_PER_PANE}); wait for some or remove one`,
          { handle, pending, max: QUEUE_MAX_PENDING_PER_PANE },
        );
      }
      const now = o.now();
      const record = o.store.insertQueueItem({
        handle,
        prompt,
        source: opts.source ?? 'rpc',
        createdAt: now,
        expiresAt: expiresInMs === undefined ? null : now + expiresInMs,
      });
      scheduleExpiry(record);
      emit(record.id);
      kick(handle);
      return viewOf(record.id);
    },
    list(handle) {
      if (handle !== undefined && !o.livePane(handle) && !o.store.getPane(handle)) {
        throw refusal('terminal_handle_stale', `no pane ${handle}; run \`orca ls\` to see the panes`, { handle });
      }
      return views(o.store.listQueueItems(handle));
    },
    get: viewOf,
    remove(id) {
      const record = o.store.getQueueItem(id);
      if (!record)
        throw refusal('queue_item_unknown', `no queued prompt ${id}; run \`orca queue ls\` to see them`, { id });
      const cancelled = transition(
        id,
        { state: 'cancelled', at: o.now(), error: { code: 'cancelled', message: 'removed from the queue' } },
        ['queued'],
      );
      if (!cancelled) {
        const state = o.store.getQueueItem(id)?.state ?? record.state;
        throw refusal(
          'queue_item_not_queued',
          state === 'delivering'
            ? `prompt ${id} is being written into ${record.handle} now; it can no longer be removed`
            : `prompt ${id} is already ${state}; only a queued prompt can be removed`,
          { id, state },
        );
      }
      stopHead(record.handle, id);
      emitPane(record.handle);
      return viewOf(id);
    },
    move(id, position) {
      const record = o.store.getQueueItem(id);
      if (!record)
        throw refusal('queue_item_unknown', `no queued prompt ${id}; run \`orca queue ls\` to see them`, { id });
      if (record.state !== 'queued') {
        throw refusal('queue_item_not_queued', `prompt ${id} is ${record.state}; only a queued prompt can be moved`, {
          id,
          state: record.state,
        });
      }
      if (!Number.isInteger(position) || position < 1) {
        throw new InvalidArgumentError(`position must be a whole number ≥ 1, got ${position}`);
      }
      const pending = o.store.listQueueItems(record.handle).filter((r) => !FINAL.has(r.state));
      // Why: an item whose text is being written stays first; the others are ordered behind it.
      const delivering = pending.filter((r) => r.state === 'delivering').map((r) => r.id);
      const queued = pending.filter((r) => r.state === 'queued' && r.id !== id).map((r) => r.id);
      queued.splice(Math.min(position - 1, queued.length), 0, id);
      const head = heads.get(record.handle);
      o.store.reorderQueue(record.handle, [...delivering, ...queued]);
      // Why: the worker waits for readiness on behalf of its head; a new head takes its place.
      if (head && head.id !== queued[0] && !delivering.includes(head.id)) head.abort.abort();
      emitPane(record.handle);
      return views(o.store.listQueueItems(record.handle)).filter((v) => !FINAL.has(v.state));
    },
    wait(id, timeoutMs, signal) {
      const first = viewOf(id);
      if (FINAL.has(first.state)) return Promise.resolve(first);
      return new Promise<QueueItemView>((resolve, reject) => {
        const finish = (): void => {
          clearTimeout(timer);
          off();
          signal?.removeEventListener('abort', onAbort);
        };
        const off = (() => {
          const l = (item: QueueItemView): void => {
            if (item.id !== id || !FINAL.has(item.state)) return;
            finish();
            resolve(item);
          };
          listeners.add(l);
          return () => listeners.delete(l);
        })();
        const timer = setTimeout(() => {
          finish();
          reject(
            refusal('timeout', `prompt ${id} was not delivered within ${Math.round(timeoutMs / 1000)} s`, {
              id,
              state: o.store.getQueueItem(id)?.state,
            }),
          );
        }, timeoutMs);
        const onAbort = (): void => {
          finish();
          reject(new DeliveryAborted());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pendingCount: (handle) => o.store.countPendingQueueItems(handle),
    paneExited(handle) {
      if (stopped) return;
      failPending(handle, 'terminal_guard_not_writable', `pane ${handle} exited before the prompt was sent`, [
        'queued',
      ]);
    },
    recover() {
      for (const r of o.store.pendingQueueItems()) {
        const pane = o.livePane(r.handle);
        if (r.state === 'delivering') {
          // Why: never written twice. The stored prompt hooks decide whether it arrived.
          const proof = proofFromStoredHooks(o.store, r);
          if (proof) {
            transition(r.id, { state: 'submitted', at: o.now(), receipt: proof }, ['delivering']);
          } else {
            transition(
              r.id,
              {
                state: 'failed',
                at: o.now(),
                error: {
                  code: 'delivery_interrupted',
                  message:
                    'the host stopped while this prompt was being written and no prompt hook proves it arrived; it is not sent again',
                },
              },
              ['delivering'],
            );
          }
          continue;
        }
        if (!pane || pane.exit) {
          const cause = o.store.getPane(r.handle)?.exitCause;
          transition(
            r.id,
            {
              state: 'failed',
              at: o.now(),
              error: {
                code: 'terminal_guard_not_writable',
                message:
                  cause === 'host-restart'
                    ? `pane ${r.handle} did not survive the host restart; the prompt was not sent`
                    : `pane ${r.handle} is gone; the prompt was not sent`,
              },
            },
            ['queued'],
          );
          continue;
        }
        scheduleExpiry(r);
      }
      const handles = new Set(o.store.pendingQueueItems().map((r) => r.handle));
      for (const handle of handles) kick(handle);
    },
    stop() {
      stopped = true;
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      for (const head of heads.values()) head.abort.abort();
    },
  };
}
