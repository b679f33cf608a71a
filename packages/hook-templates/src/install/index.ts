export {
  type AgentVersionUsed,
  type ApplyInstallOptions,
  applyInstall,
  type InstallAction,
  type InstallReport,
} from './apply.ts';
export { CLAUDE_EVENT_FIRST_VERSION, claudeGate, parseVersion } from './claude-gate.ts';
export { CODEX_EVENT_LABELS, type CodexCommandHandler, codexEventLabel, codexHookHash } from './codex-hook-hash.ts';
export { applyCodexTrust, type CodexTrustEntry, readCodexTrust } from './codex-trust.ts';
export { isManagedHandler } from './hooks-edit.ts';
export {
  type AgentInstallState,
  agentStatus,
  type CodexTrustKey,
  type InstallFile,
  type InstallInput,
  type InstallResult,
  installAgent,
  installPaths,
  uninstallAgent,
} from './install.ts';
export type { InstallIo } from './install-io.ts';
export {
  AGENT_ENV_OVERRIDE_KEYS,
  type AgentEnvOverrides,
  agentEnvOverrides,
  codexConfigTomlPath,
  configPath,
  hooksDir,
} from './paths.ts';
export { launchedScriptPath, type ScriptFile, scriptFiles } from './scripts.ts';
