// Starts a worker thread whose entry is TypeScript, for a host run from its source (tests,
// `pnpm orca`, benches): tsx's hooks are registered before the entry is imported (`--import tsx`
// in a worker's execArgv registers too late on Node 20). Never shipped; the built host starts
// `dist/*.js` workers directly. workerData.entry: the file URL of the `.ts` entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
