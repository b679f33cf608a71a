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
export { type InstallIo, nodeInstallIo } from './node-io.ts';
export { type AgentEnvOverrides, codexConfigTomlPath, configPath, hooksDir } from './paths.ts';
export { launchedScriptPath, type ScriptFile, scriptFiles } from './scripts.ts';
