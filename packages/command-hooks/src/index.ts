/**
 * @orca/command-hooks — run users' Claude Code, Cursor and Orca-dialect command hooks with
 * vendor-faithful semantics.
 *
 * @example
 * import { createCommandHookRunner, discoverHooks } from '@orca/command-hooks';
 * const { hooks } = await discoverHooks('/repo', { home: os.homedir() });
 * const runner = createCommandHookRunner({ hooks });
 * const out = await runner.emit('beforeSubmitPrompt', { prompt: 'hi' }, { conversationId: paneKey });
 */

export { CLI_EXIT, type CliIo as CommandHooksCliIo, runCli as runCommandHooksCli } from './cli/run-cli.ts';
export type { ParsedHooks } from './config/builder.ts';
export type { ConfigErrorCode, ConfigIssue, ConfigWarningCode } from './config/issues.ts';
export { CONFIG_WARNING_CODES } from './config/issues.ts';
export { decodeEncodedCommands, isManagedHookCommand, MANAGED_AGENTS, MANAGED_STEMS } from './config/managed.ts';
export { parseHookConfig } from './config/parse.ts';
export { type ConfigFileSystem, type DiscoveredHooks, discoverHooks } from './discover.ts';
export { DetachedDispatcher, type DetachedTask, type DispatchStatus } from './dispatcher.ts';
export { type EnvMap, isLlmCredentialKey, parseHookDepth, scrubLlmCredentials } from './env.ts';
export { COMMAND_HOOKS_ERROR_CODES, CommandHooksError, type CommandHooksErrorCode } from './errors.ts';
export {
  type BlockingEvent,
  CANONICAL_EVENTS,
  type CanonicalEvent,
  EVENT_PAYLOAD_SCHEMAS,
  EVENT_TRAITS,
  type EventPayloads,
  type HookContext,
  type HookModel,
  isCanonicalEvent,
  threadKeyOf,
} from './events.ts';
export type { CommandHook, Dialect, FailureMode } from './hook.ts';
export * from './limits.ts';
export { compileMatcher, globAccepts, matcherAccepts } from './matchers.ts';
export {
  type AsyncOutcome,
  type BlockingOutcome,
  type HookRunResult,
  type MergedOutcome,
  mergeOutcomes,
  type PermissionDecision,
} from './outcome.ts';
export type { DropRecord, HookRecord, RunDecision, RunRecord } from './records.ts';
export {
  type AsyncOutcomeEvent,
  type CommandHookRunner,
  type CommandHookRunnerOptions,
  createCommandHookRunner,
  type FailurePolicy,
  type HookRuntimeErrorEvent,
} from './runner.ts';
export type { SandboxLaunch, SandboxRuntime } from './sandbox.ts';
export { clampTimeoutMs, type HookSpawnResult, type SpawnFunction } from './spawn.ts';
