/**
 * `@orca/host`: the composition root. Library entry for tests and embedders; the `orca` CLI is
 * `src/cli.ts`.
 *
 * @example
 * import { openStore, ensureDataDir } from '@orca/host';
 * const store = openStore(ensureDataDir('/tmp/orca').store);
 */

export { type AgentVersions, createAgentVersions } from './agent-hooks/agent-versions.ts';
export { type AgentInstallReport, type InstallHooksOptions, installHooks } from './agent-hooks/install-hooks.ts';
export { runCli } from './cli/program.ts';
export * from './constants.ts';
export { type DemoEvent, formatDemoEvent, runDemo } from './demo/run-demo.ts';
export {
  HOST_ERROR_CODES,
  HostError,
  type HostErrorCode,
  type HostErrorOptions,
  HostRefusal,
  isRefusal,
  REFUSAL_CODES,
  type RefusalCode,
} from './errors.ts';
export {
  type CreatePaneOptions,
  createHost,
  type Host,
  type HostOptions,
  type VerdictChange,
  type WaitResult,
} from './host/host.ts';
export {
  DeliveryAborted,
  type DeliveryOptions,
  type DispatchReceipt,
  type DispatchStage,
} from './panes/delivery-types.ts';
export { deliverPrompt, dispatchPrompt } from './panes/dispatch.ts';
export { cmdlineToText, readForegroundCommand, tpgidFromStat } from './panes/foreground-probe.ts';
export { type PaneExit, type PaneProcess, type PaneProcessOptions, spawnPaneProcess } from './panes/pane-process.ts';
export type { PaneView } from './panes/pane-view.ts';
export { createPaneScreen, type PaneScreen, type TitleChange } from './panes/screen.ts';
export { connectRuntime, RpcCallError, type RuntimeClient } from './rpc/client.ts';
export { HOST_CAPABILITIES, statusGetResult } from './rpc/methods.ts';
export { startRuntimeServer } from './rpc/runtime-server.ts';
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
