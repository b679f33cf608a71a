/**
 * `@orca/host`: the composition root. Library entry for tests and embedders; the `orca` CLI is
 * `src/cli.ts`.
 *
 * @example
 * import { openStore, ensureDataDir } from '@orca/host';
 * const store = openStore(ensureDataDir('/tmp/orca').store);
 */
export * from './constants.ts';
export { echo, HOST_ERROR_CODES, HostError, type HostErrorCode } from './errors.ts';
export { cmdlineToText, readForegroundCommand, tpgidFromStat } from './pane/foreground-probe.ts';
export { type PaneExit, type PaneProcess, type PaneProcessOptions, spawnPaneProcess } from './pane/pane-process.ts';
export { createPaneScreen, type PaneScreen, type TitleChange } from './pane/screen.ts';
export { type DataDirInputs, type DataPaths, dataPaths, ensureDataDir, resolveDataDir } from './runtime/data-dir.ts';
export {
  acquireRuntimeFile,
  isPidAlive,
  type RuntimeClaim,
  type RuntimeInfo,
  RuntimeInfoSchema,
  readRuntimeInfo,
} from './runtime/runtime-file.ts';
export { MIGRATIONS, type Migration } from './store/migrations.ts';
export {
  type GuestRecord,
  type HookRowRecord,
  migrate,
  openStore,
  type PaneRecord,
  type Store,
  type StoredAgentWait,
  type VerdictRecord,
} from './store/store.ts';
