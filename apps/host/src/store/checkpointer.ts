import { Worker } from 'node:worker_threads';
import type { CheckpointWorkerData } from './checkpoint-worker.ts';

/** The running checkpoint worker of one store. */
export interface Checkpointer {
  /** Stops it (its connection closed); the store checkpoints in its own thread again. */
  stop(): void;
}

function startCheckpointWorker(data: CheckpointWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: data });
  // Why: from source (tests, `pnpm orca`) a dev-only boot file registers tsx before the entry loads.
  const entry = new URL('./checkpoint-worker.ts', import.meta.url).href;
  return new Worker(new URL('../../dev/ts-worker.mjs', import.meta.url), { workerData: { ...data, entry } });
}

/**
 * Moves the WAL checkpoints of the store at `path` into a worker thread. Why: an automatic
 * checkpoint runs inside the commit that crosses the WAL threshold, on the host thread; under a
 * hook storm that was a stall of ~150 ms every few seconds, the tail of every hook's verdict.
 * The main connection stops checkpointing (`wal_autocheckpoint = 0`) only while the worker runs:
 * `onLost` (the worker failed or exited) must turn it back on.
 */
export function startCheckpointer(path: string, intervalMs: number, onLost: (why: string) => void): Checkpointer {
  const worker = startCheckpointWorker({ path, intervalMs });
  let stopped = false;
  let lost = false;
  const lose = (why: string): void => {
    if (stopped || lost) return;
    lost = true;
    onLost(why);
  };
  worker.on('message', (m: { failed?: string }) => {
    if (m.failed) lose(`checkpoint failed: ${m.failed}`);
  });
  // Why: an error thrown in the worker may arrive as a plain object (its message kept), not an Error.
  worker.on('error', (error: unknown) => lose(String((error as { message?: unknown } | null)?.message ?? error)));
  worker.on('exit', (code) => lose(`checkpoint worker exited (${code})`));
  worker.unref();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
