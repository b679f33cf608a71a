// The store's WAL checkpointer, in its own thread: copies committed WAL frames into the database
// file every interval, so the host thread never runs a checkpoint inside a commit.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What the checkpoint worker is started with. */
export interface CheckpointWorkerData {
  readonly path: string;
  readonly intervalMs: number;
  /** The `.ts` entry when run from source (read by `dev/ts-worker.mjs`). */
  readonly entry?: string;
}

const { path, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    // Why: PASSIVE never waits for the host's writers or readers; what it cannot copy now waits for the next round.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort?.postMessage({ failed: String(error) });
  }
}, intervalMs);
parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
