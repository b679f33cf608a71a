/**
 * `@orca/hook-templates`: compiles stdin-safe agent hook scripts (POSIX sh, Windows batch,
 * PowerShell), the launcher commands agent configs run, and pure config installers.
 *
 * @example
 * import { emitScript, planFor, installAgent } from '@orca/hook-templates';
 * const script = emitScript(planFor('codex', { os: 'posix', dialect: 'sh' }));
 * const { files, expected } = installAgent({ agent: 'codex', os: 'posix', home: '/home/u', configs: {} });
 */
export * from './agents/index.ts';
export * from './constants.ts';
export * from './emit/index.ts';
export * from './endpoint/index.ts';
export { HOOK_TEMPLATES_ERROR_CODES, HookTemplatesError, type HookTemplatesErrorCode } from './errors.ts';
export * from './install/index.ts';
export * from './launchers/index.ts';
export * from './plan/index.ts';
export * from './verify/index.ts';
export {
  AGENT_VERSION_COMMANDS,
  type DetectedVersion,
  detectAgentVersion,
  parseAgentVersion,
  type VersionProbe,
} from './versions/agent-version.ts';
