import { ANTIGRAVITY_WRAPPERS } from '@orca/shared/agents';
import {
  CLAUDE_WINDOWS_HOOK_TIMEOUT_S,
  COPILOT_HOOK_TIMEOUT_S,
  CURL_MAX_TIME_S,
  DEFAULT_HOOK_TIMEOUT_S,
  GEMINI_HOOK_TIMEOUT_MS,
  GROK_CURL_MAX_TIME_S,
  GROK_HOME_MAX_CHARS,
  GROK_HOOK_TIMEOUT_S,
} from '../constants.ts';
import { HookTemplatesError } from '../errors.ts';
import { OPENCODE_PLUGIN_EVENTS } from '../install/opencode-events.ts';
import type { AgentDescriptor, SkipRule } from './descriptor.ts';
import { AGENT_IDS, type AgentId, isAgentId } from './sources.ts';

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest'] as const;
const CLAUDE_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'TeammateIdle',
  ...TOOL_EVENTS,
  'PostCompact',
  'SessionEnd',
] as const;
const CLAUDE_SKIPS: readonly SkipRule[] = [
  { env: 'GROK_HOOK_EVENT', holdsStdin: false },
  { env: 'CLAUDE_JOB_DIR', holdsStdin: true },
  { env: 'DEVIN_PROJECT_DIR', holdsStdin: false },
];
/** Cursor events whose launcher answers `{"permission":"allow"}`. */
export const CURSOR_PERMISSION_EVENTS = ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution'] as const;
/** Cursor's allow answer. */
export const CURSOR_ALLOW_RESPONSE = '{"permission":"allow"}';

const base = {
  toolEvents: [] as readonly string[],
  protocol: { fixed: '{}' },
  capture: 'required',
  skips: [] as readonly SkipRule[],
  extras: [],
  maxTimeS: CURL_MAX_TIME_S,
  recoverEnv: false,
  configTimeout: DEFAULT_HOOK_TIMEOUT_S,
  windowsDialect: 'batch',
  windowsLauncher: 'encodedPowerShell',
  posixLauncher: 'posixGuarded',
  configEnv: [] as readonly string[],
} as const;

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The registry: one descriptor per agent of {@link AGENT_IDS} (spec §2).
 *
 * @example
 * AGENTS.codex.events // ['SessionStart', 'UserPromptSubmit', …]
 */
export const AGENTS: Readonly<Record<AgentId, AgentDescriptor>> = {
  claude: {
    ...base,
    configPath: ({ join, home, env }) => join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'settings.json'),
    configEnv: ['CLAUDE_CONFIG_DIR'],
    windowsConfigTimeout: CLAUDE_WINDOWS_HOOK_TIMEOUT_S,
    posixLauncher: 'runtimeHome',
    eventGate: 'claudeCodeVersion',
    id: 'claude',
    source: 'claude',
    scriptStem: 'claude',
    events: CLAUDE_EVENTS,
    toolEvents: TOOL_EVENTS,
    toolMatcher: '*',
    boundedIf: 'GROK_HOOK_EVENT',
    skips: CLAUDE_SKIPS,
    configShape: 'claude',
    windowsLauncher: 'claude',
  },
  openclaude: {
    ...base,
    configPath: ({ join, home }) => join(home, '.openclaude', 'settings.json'),
    posixLauncher: 'runtimeHome',
    id: 'openclaude',
    source: 'claude',
    scriptStem: 'openclaude',
    events: CLAUDE_EVENTS.filter((e) => e !== 'SessionEnd'),
    toolEvents: TOOL_EVENTS,
    toolMatcher: '*',
    boundedIf: 'GROK_HOOK_EVENT',
    skips: CLAUDE_SKIPS,
    configShape: 'claude',
    windowsLauncher: 'claude',
  },
  codex: {
    ...base,
    configPath: ({ join, home, env }) => join(env.CODEX_HOME || join(home, '.codex'), 'hooks.json'),
    configEnv: ['CODEX_HOME'],
    hookTrust: 'codexConfigToml',
    id: 'codex',
    source: 'codex',
    scriptStem: 'codex',
    events: [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'SubagentStart',
      'SubagentStop',
      'Stop',
    ],
    configShape: 'codex',
    windowsLauncher: 'cmdFastPath',
  },
  gemini: {
    ...base,
    configPath: ({ join, home }) => join(home, '.gemini', 'settings.json'),
    hooksDisabled: (config) => isObject(config.hooksConfig) && config.hooksConfig.enabled === false,
    id: 'gemini',
    source: 'gemini',
    scriptStem: 'gemini',
    events: ['BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool'],
    configShape: 'gemini',
    configTimeout: GEMINI_HOOK_TIMEOUT_MS,
  },
  antigravity: {
    ...base,
    configPath: ({ join, home }) => join(home, '.gemini', 'config', 'hooks.json'),
    windowsEventWrappers: ANTIGRAVITY_WRAPPERS,
    id: 'antigravity',
    source: 'antigravity',
    scriptStem: 'antigravity',
    events: ['PreInvocation', 'PostInvocation', 'Stop', 'PreToolUse', 'PostToolUse'],
    toolEvents: ['PreToolUse', 'PostToolUse'],
    toolMatcher: '*',
    protocol: {
      byEnv: 'ORCA_ANTIGRAVITY_EVENT',
      table: { Stop: '{"decision":""}', PreToolUse: '{"decision":"ask"}' },
      default: '{}',
    },
    capture: 'emptyAsObject',
    extras: [{ field: 'hookEventName', env: 'ORCA_ANTIGRAVITY_EVENT' }],
    configShape: 'antigravity',
    launcherEnv: { env: 'ORCA_ANTIGRAVITY_EVENT' },
    windowsLauncher: 'cmdFastPath',
  },
  cursor: {
    ...base,
    configPath: ({ join, home }) => join(home, '.cursor', 'hooks.json'),
    id: 'cursor',
    source: 'cursor',
    scriptStem: 'cursor',
    events: [
      'beforeSubmitPrompt',
      'stop',
      'preToolUse',
      'postToolUse',
      'postToolUseFailure',
      'beforeShellExecution',
      'beforeMCPExecution',
      'afterAgentResponse',
    ],
    protocol: { fromEnv: 'ORCA_CURSOR_HOOK_RESPONSE', default: '{}' },
    boundedIf: 'GROK_HOOK_EVENT',
    skips: [{ env: 'GROK_HOOK_EVENT', holdsStdin: false }],
    configShape: 'cursor',
    launcherEnv: {
      env: 'ORCA_CURSOR_HOOK_RESPONSE',
      valueFor: (event) =>
        (CURSOR_PERMISSION_EVENTS as readonly string[]).includes(event) ? CURSOR_ALLOW_RESPONSE : '{}',
    },
  },
  droid: {
    ...base,
    configPath: ({ join, home }) => join(home, '.factory', 'settings.json'),
    hooksDisabled: (config) => config.hooksDisabled === true,
    id: 'droid',
    source: 'droid',
    scriptStem: 'droid',
    events: [
      'SessionStart',
      'UserPromptSubmit',
      'Stop',
      'PreToolUse',
      'PostToolUse',
      'PermissionRequest',
      'Notification',
    ],
    toolEvents: ['PreToolUse', 'PostToolUse', 'PermissionRequest'],
    toolMatcher: '*',
    protocol: null,
    configShape: 'claude',
  },
  devin: {
    ...base,
    configPath: ({ os, join, home, env }) =>
      os === 'windows'
        ? join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'devin', 'config.json')
        : join(home, '.config', 'devin', 'config.json'),
    configEnv: ['APPDATA'],
    id: 'devin',
    source: 'devin',
    scriptStem: 'devin',
    events: [
      'SessionStart',
      'UserPromptSubmit',
      'Stop',
      'PostCompaction',
      'SessionEnd',
      'PreToolUse',
      'PostToolUse',
      'PermissionRequest',
    ],
    protocol: null,
    configShape: 'devin',
    windowsLauncher: 'cmdFastPath',
  },
  grok: {
    ...base,
    configPath: ({ join, home, env }) => join(env.GROK_HOME || join(home, '.grok'), 'hooks', 'orca-status.json'),
    configEnv: ['GROK_HOME'],
    emptyConfigOptsOut: true,
    requiresPaneKey: true,
    id: 'grok',
    source: 'grok',
    scriptStem: 'grok',
    events: [
      'SessionStart',
      'UserPromptSubmit',
      'Stop',
      'StopCancelled',
      'StopFailure',
      'SessionEnd',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'Notification',
    ],
    toolEvents: ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'],
    toolMatcher: '.*',
    protocol: null,
    capture: 'firstJsonValue',
    extras: [{ field: 'grokHome', env: 'GROK_HOME', maxLen: GROK_HOME_MAX_CHARS }],
    maxTimeS: GROK_CURL_MAX_TIME_S,
    configShape: 'grok',
    configTimeout: GROK_HOOK_TIMEOUT_S,
    windowsLauncher: 'cmdFastPath',
  },
  copilot: {
    ...base,
    configPath: ({ join, home, env }) => join(env.COPILOT_HOME || join(home, '.copilot'), 'hooks', 'orca.json'),
    configEnv: ['COPILOT_HOME'],
    hooksDisabled: (config) => config.disableAllHooks === true,
    id: 'copilot',
    source: 'copilot',
    scriptStem: 'copilot',
    events: [
      'SessionStart',
      'SessionEnd',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'subagentStart',
      'SubagentStop',
      'PreCompact',
      'Stop',
      'ErrorOccurred',
      'PermissionRequest',
      'Notification',
    ],
    extras: [{ field: 'hookEventName', env: 'ORCA_COPILOT_HOOK_EVENT' }],
    configShape: 'copilot',
    configTimeout: COPILOT_HOOK_TIMEOUT_S,
    windowsDialect: 'pwsh',
    launcherEnv: { env: 'ORCA_COPILOT_HOOK_EVENT' },
  },
  'command-code': {
    ...base,
    configPath: ({ join, home }) => join(home, '.commandcode', 'settings.json'),
    id: 'command-code',
    source: 'command-code',
    scriptStem: 'command-code',
    events: ['PreToolUse', 'PostToolUse', 'Stop'],
    toolEvents: ['PreToolUse', 'PostToolUse'],
    toolMatcher: '.*',
    protocol: null,
    recoverEnv: true,
    configShape: 'claude',
  },
  qwen: {
    ...base,
    id: 'qwen',
    source: 'qwen',
    scriptStem: 'qwen',
    // Why: Qwen Code 0.24.4 fires Claude's events with Claude's payloads; timeouts in seconds.
    events: CLAUDE_EVENTS.filter((e) => e !== 'TeammateIdle'),
    toolEvents: TOOL_EVENTS,
    toolMatcher: '*',
    configShape: 'claude',
    configPath: ({ join, home }) => join(home, '.qwen', 'settings.json'),
    hooksDisabled: (config) => config.disableAllHooks === true,
  },
  opencode: {
    ...base,
    id: 'opencode',
    source: 'opencode',
    scriptStem: 'opencode',
    // Why: opencode has no command hooks; the plugin Orca writes (install/opencode-plugin.ts) turns
    // its bus events into these and runs the script itself, outside Orca panes not at all.
    events: OPENCODE_PLUGIN_EVENTS,
    protocol: null,
    configShape: 'opencode-plugin',
    configPath: ({ join, home, env }) =>
      join(env.XDG_CONFIG_HOME || join(home, '.config'), 'opencode', 'plugins', 'orca-status.js'),
    configEnv: ['XDG_CONFIG_HOME'],
    windowsDialect: 'pwsh',
    requiresPaneKey: true,
  },
};

/** Every descriptor in {@link AGENT_IDS} order. */
export const AGENT_LIST: readonly AgentDescriptor[] = AGENT_IDS.map((id) => AGENTS[id]);

/**
 * The descriptor of `agent`, or `ORCA_HOOKS_UNKNOWN_AGENT`.
 *
 * @example
 * getAgent('grok').maxTimeS // 8
 */
export function getAgent(agent: string): AgentDescriptor {
  if (!isAgentId(agent)) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_UNKNOWN_AGENT',
      `unknown agent ${JSON.stringify(agent.slice(0, 200))}; expected one of ${AGENT_IDS.join(', ')}`,
      { context: { agent: agent.slice(0, 200) } },
    );
  }
  return AGENTS[agent];
}

/** The protocol line `agent` prints for `event` (as its launcher sets the env), or `null`. */
export function protocolLineFor(descriptor: AgentDescriptor, event: string | undefined): string | null {
  const p = descriptor.protocol;
  if (p === null) return null;
  if ('fixed' in p) return p.fixed;
  if ('byEnv' in p) return (event !== undefined ? p.table[event] : undefined) ?? p.default;
  const value = event !== undefined ? descriptor.launcherEnv?.valueFor?.(event) : undefined;
  return value ?? p.default;
}

/** The per-event launcher env of `agent` for `event` (empty when it has none). */
export function launcherEnvFor(descriptor: AgentDescriptor, event: string | undefined): Record<string, string> {
  const rule = descriptor.launcherEnv;
  if (rule === undefined || event === undefined) return {};
  return { [rule.env]: rule.valueFor ? rule.valueFor(event) : event };
}
