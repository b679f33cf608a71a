import { MAX_DETACHED_PENDING, MAX_DETACHED_RUNNING } from './limits.ts';

/** What `dispatch` did with a detached task, synchronously. */
export type DispatchStatus = 'running' | 'pending' | 'dropped';

/** One detached unit of work. */
export interface DetachedTask {
  run(): Promise<void>;
  /** Called once when the task will never run. */
  onDrop(reason: 'queue-full' | 'aborted'): void;
}

interface ThreadState {
  running: number;
  pending: DetachedTask[];
}

/**
 * Per-thread bounded dispatcher: at most `maxRunning` tasks run, then a FIFO of `maxPending`,
 * then drops. Threads are independent. A rejected task goes to `onError` and frees its slot.
 *
 * @example
 * const d = new DetachedDispatcher({ onError: console.error });
 * d.dispatch('t1', { run: async () => {}, onDrop: () => {} }); // 'running'
 * await d.whenIdle('t1');
 */
export class DetachedDispatcher {
  readonly #threads = new Map<string, ThreadState>();
  readonly #aborted = new Set<string>();
  readonly #waiters: { thread: string | undefined; resolve: () => void }[] = [];
  readonly #maxRunning: number;
  readonly #maxPending: number;
  readonly #onError: (error: unknown) => void;

  constructor(opts: { onError?: (error: unknown) => void; maxRunning?: number; maxPending?: number } = {}) {
    this.#maxRunning = opts.maxRunning ?? MAX_DETACHED_RUNNING;
    this.#maxPending = opts.maxPending ?? MAX_DETACHED_PENDING;
    this.#onError = opts.onError ?? (() => {});
  }

  /** Start, queue or drop a task on `thread`. */
  dispatch(thread: string, task: DetachedTask): DispatchStatus {
    if (this.#aborted.has(thread)) {
      this.#drop(task, 'aborted');
      return 'dropped';
    }
    const state = this.#state(thread);
    if (state.running < this.#maxRunning) {
      this.#start(thread, state, task);
      return 'running';
    }
    if (state.pending.length < this.#maxPending) {
      state.pending.push(task);
      return 'pending';
    }
    this.#drop(task, 'queue-full');
    return 'dropped';
  }

  /** Drop a thread's pending tasks (`aborted`) and every later dispatch; running ones finish. */
  abortThread(thread: string): void {
    this.#aborted.add(thread);
    const state = this.#threads.get(thread);
    if (state === undefined) return;
    const pending = state.pending.splice(0);
    for (const task of pending) this.#drop(task, 'aborted');
    this.#settle(thread, state);
  }

  /** Tasks running and waiting on a thread. */
  load(thread: string): { running: number; pending: number } {
    const state = this.#threads.get(thread);
    return { running: state?.running ?? 0, pending: state?.pending.length ?? 0 };
  }

  /** Resolves when nothing runs or waits on `thread` (or on any thread when omitted). */
  whenIdle(thread?: string): Promise<void> {
    if (this.#idle(thread)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ thread, resolve }));
  }

  #state(thread: string): ThreadState {
    let state = this.#threads.get(thread);
    if (state === undefined) {
      state = { running: 0, pending: [] };
      this.#threads.set(thread, state);
    }
    return state;
  }

  #drop(task: DetachedTask, reason: 'queue-full' | 'aborted'): void {
    try {
      task.onDrop(reason);
    } catch (error) {
      this.#onError(error);
    }
  }

  #start(thread: string, state: ThreadState, task: DetachedTask): void {
    state.running++;
    let promise: Promise<void>;
    try {
      promise = task.run();
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise
      .catch((error: unknown) => this.#onError(error))
      .finally(() => {
        state.running--;
        const next = state.pending.shift();
        if (next !== undefined) this.#start(thread, state, next);
        this.#settle(thread, state);
      });
  }

  #settle(thread: string, state: ThreadState): void {
    if (state.running === 0 && state.pending.length === 0) this.#threads.delete(thread);
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const w = this.#waiters[i];
      if (w !== undefined && this.#idle(w.thread)) {
        this.#waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  #idle(thread: string | undefined): boolean {
    if (thread !== undefined) return !this.#threads.has(thread);
    return this.#threads.size === 0;
  }
}
