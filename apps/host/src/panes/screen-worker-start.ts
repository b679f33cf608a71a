import { availableParallelism } from 'node:os';
import { type MessagePort, Worker } from 'node:worker_threads';
import { MAX_DEFAULT_SCREEN_WORKERS } from '../constants.ts';
import type { ScreenWorkerData } from './screen-protocol.ts';

/** One screen worker per core beyond the host's own thread: at least 1, at most {@link MAX_DEFAULT_SCREEN_WORKERS}. */
export function defaultScreenWorkers(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(MAX_DEFAULT_SCREEN_WORKERS, cores - 1));
}

/** How the worker module is started: the built `.js` beside this chunk, or the `.ts` source through tsx. */
export function startWorker(data: ScreenWorkerData, transfer: MessagePort[]): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./screen-worker.js', import.meta.url), { workerData: data, transferList: transfer });
  }
  // Why: from source (tests, `pnpm orca`) a dev-only boot file registers tsx before the entry loads.
  const entry = new URL('./screen-worker.ts', import.meta.url).href;
  return new Worker(new URL('../../dev/ts-worker.mjs', import.meta.url), {
    workerData: { ...data, entry },
    transferList: transfer,
  });
}
