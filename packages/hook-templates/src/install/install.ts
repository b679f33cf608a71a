import type { AgentDescriptor } from '../agents/descriptor.ts';
import { getAgent } from '../agents/registry.ts';
import { CODEX_TRUST_MIN_VERSION, CONFIG_FILE_MODE } from '../constants.ts';
import { launcherCommand } from '../launchers/for-agent.ts';
import { claudeGate, parseVersion, versionAtLeast } from './claude-gate.ts';
import { codexEventLabel, codexHookHash } from './codex-hook-hash.ts';
import { applyCodexTrust } from './codex-trust.ts';
import { editJsoncHooks, formatJson, objectMember, parseConfig } from './config-text.ts';
import { isJsonObject, isManagedHandler, type JsonObject, managedEvents, sweepAndAppend } from './hooks-edit.ts';
import { isManagedPlugin, pluginContent, pluginFile, pluginState } from './opencode-install.ts';
import { type AgentEnvOverrides, codexConfigTomlPath, configPath } from './paths.ts';
import { launchedScriptPath, scriptFiles } from './scripts.ts';

/** Install state of one agent. */
export type AgentInstallState = 'installed' | 'partial' | 'not_installed' | 'error' | 'opted_out';

/** Input of {@link installAgent}, {@link uninstallAgent} and {@link agentStatus}. */
export interface InstallInput {
  agent: string;
  os: 'posix' | 'windows';
  home: string;
  env?: AgentEnvOverrides;
  /** Current text of config (and optionally script) files by path; `null` or missing = absent. */
  configs: Readonly<Record<string, string | null>>;
  agentVersion?: string;
  gitBash?: boolean;
  systemRoot?: string;
}

/** One file the host should write. */
export interface InstallFile {
  path: string;
  content: string;
  mode: number;
  action: 'create' | 'update' | 'unchanged';
}

/** A Codex trust entry: the hook's key in `config.toml` `[hooks.state]` and the hash Codex checks. */
export interface CodexTrustKey {
  key: string;
  event: string;
  command: string;
  /** `sha256:…`, computed as Codex does (see `codexHookHash`). */
  hash: string;
}

/** Result of the pure installers. Write scripts first, then each config only if it still equals `expected[path]`. */
export interface InstallResult {
  state: AgentInstallState;
  files: InstallFile[];
  remove: string[];
  expected: Record<string, string | null>;
  codexTrustKeys?: CodexTrustKey[];
  warnings: string[];
}

function action(before: string | null | undefined, after: string): InstallFile['action'] {
  if (before === null || before === undefined) return 'create';
  return before === after ? 'unchanged' : 'update';
}

/** The agent's managed scripts, each with what writing it would do. */
function managedScripts(d: AgentDescriptor, input: InstallInput): InstallFile[] {
  return scriptFiles(d, input.os, input.home).map((f) => ({ ...f, action: action(input.configs[f.path], f.content) }));
}

function timeoutFor(d: AgentDescriptor, os: 'posix' | 'windows'): number {
  return os === 'windows' ? (d.windowsConfigTimeout ?? d.configTimeout) : d.configTimeout;
}

/** The config entries of one event (group or flat handler per the agent's shape). */
function entriesFor(d: AgentDescriptor, input: InstallInput, event: string): unknown[] {
  const script = launchedScriptPath(d, input.os, input.home, event);
  const { command } = launcherCommand({
    agent: d.id,
    platform: input.os,
    script,
    event,
    ...(input.gitBash !== undefined ? { gitBash: input.gitBash } : {}),
    ...(input.systemRoot !== undefined ? { systemRoot: input.systemRoot } : {}),
    // Why: per-event Windows wrappers (Antigravity's) set the event env themselves.
    ...(input.os === 'windows' && d.windowsEventWrappers !== undefined ? { env: {} } : {}),
  });
  const timeout = timeoutFor(d, input.os);
  const matcher = d.toolMatcher !== undefined && d.toolEvents.includes(event) ? { matcher: d.toolMatcher } : {};
  switch (d.configShape) {
    case 'cursor':
      return [{ command, timeout }];
    case 'copilot':
      return [{ type: 'command', [input.os === 'posix' ? 'bash' : 'powershell']: command, timeoutSec: timeout }];
    case 'antigravity':
      return d.toolEvents.includes(event)
        ? [{ ...matcher, hooks: [{ type: 'command', command, timeout }] }]
        : [{ type: 'command', command, timeout }];
    default:
      return [{ ...matcher, hooks: [{ type: 'command', command, timeout }] }];
  }
}

/** Codex checks hook trust from 0.129 on; an unknown version is taken to be a current one. */
function codexHasTrust(version: string | undefined): boolean {
  const parsed = parseVersion(version);
  const min = parseVersion(CODEX_TRUST_MIN_VERSION);
  return parsed === null || min === null || versionAtLeast(parsed, min);
}

function eventsToInstall(d: AgentDescriptor, version: string | undefined): { events: string[]; only?: Set<string> } {
  if (d.eventGate !== 'claudeCodeVersion') return { events: [...d.events] };
  const gate = claudeGate(d.events, version);
  return gate.retire ? { events: gate.events } : { events: gate.events, only: new Set(gate.events) };
}

/** Every command handler of a Codex hooks object with its trust key; `managed` tells ours apart. */
function codexHandlers(
  path: string,
  hooks: JsonObject,
  os: 'posix' | 'windows',
): (CodexTrustKey & { managed: boolean })[] {
  const out: (CodexTrustKey & { managed: boolean })[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    const label = codexEventLabel(event);
    if (label === null || !Array.isArray(groups)) continue;
    groups.forEach((g, gi) => {
      if (!isJsonObject(g) || !Array.isArray(g.hooks)) return;
      const matcher = typeof g.matcher === 'string' ? g.matcher : undefined;
      g.hooks.forEach((h, hi) => {
        if (!isJsonObject(h) || typeof h.command !== 'string' || h.command.trim() === '') return;
        const handler = {
          command: h.command,
          ...(typeof h.commandWindows === 'string' ? { commandWindows: h.commandWindows } : {}),
          ...(typeof h.timeout === 'number' ? { timeout: h.timeout } : {}),
          ...(typeof h.async === 'boolean' ? { async: h.async } : {}),
          ...(typeof h.statusMessage === 'string' ? { statusMessage: h.statusMessage } : {}),
          ...(typeof h.additionalContextLimit === 'number' ? { additionalContextLimit: h.additionalContextLimit } : {}),
        };
        out.push({
          key: `${path}:${label}:${gi}:${hi}`,
          event,
          command: h.command,
          hash: codexHookHash(event, matcher, handler, os),
          managed: isManagedHandler(h),
        });
      });
    });
  }
  return out;
}

/**
 * Trust for our handlers in Codex's config.toml: each managed handler's key gets its hash; keys our
 * handlers held before and no handler holds now are dropped (a user handler's entry is never touched).
 */
function codexTrustEdit(
  input: InstallInput,
  path: string,
  before: JsonObject | null,
  after: JsonObject,
): { tomlPath: string; toml: string | null; next: string; keys: CodexTrustKey[] } {
  const tomlPath = codexConfigTomlPath(input.os, input.home, input.env);
  const toml = input.configs[tomlPath] ?? null;
  const now = codexHandlers(path, after, input.os);
  const ours = now.filter((h) => h.managed);
  const taken = new Set(now.map((h) => h.key));
  const previous = before ? codexHandlers(path, before, input.os) : [];
  const drop = previous.filter((h) => h.managed && !taken.has(h.key)).map((h) => h.key);
  const keys = ours.map(({ managed: _managed, ...k }) => k);
  const next = applyCodexTrust(toml ?? '', keys, drop);
  return { tomlPath, toml, next, keys };
}

interface ConfigEdit {
  content: string;
  root: JsonObject;
}

/** Applies `ours` (empty for uninstall) to the config text. */
function editConfig(
  d: AgentDescriptor,
  path: string,
  text: string | null,
  ours: Record<string, unknown[]>,
  only?: Set<string>,
): ConfigEdit {
  const jsonc = d.configShape === 'devin';
  const root = parseConfig(text, path, jsonc);
  if (d.configShape === 'antigravity') {
    const bundle = objectMember(root, 'orca-status', path);
    const swept = sweepAndAppend(bundle, ours);
    const next: JsonObject = { ...root };
    if (Object.keys(swept).length > 0) next['orca-status'] = swept;
    else delete next['orca-status'];
    return { content: formatJson(next), root: next };
  }
  const hooks = objectMember(root, 'hooks', path);
  const newHooks = sweepAndAppend(hooks, ours, only);
  let next: JsonObject;
  if (d.configShape === 'codex') next = { hooks: newHooks };
  else if (d.configShape === 'cursor') next = { version: root.version ?? 1, ...root, hooks: newHooks };
  else if (d.configShape === 'copilot') {
    next = { ...root, version: 1, hooks: newHooks };
    delete next.disableAllHooks;
  } else next = { ...root, hooks: newHooks };
  if (jsonc) return { content: editJsoncHooks(text, hooks, newHooks, root.hooks !== undefined), root: next };
  return { content: formatJson(next), root: next };
}

function stateOf(d: AgentDescriptor, root: JsonObject, expectedEvents: readonly string[]): AgentInstallState {
  const container = d.configShape === 'antigravity' ? root['orca-status'] : root.hooks;
  const found = isJsonObject(container) ? managedEvents(container) : new Set<string>();
  const have = expectedEvents.filter((e) => found.has(e)).length;
  if (have === 0) return 'not_installed';
  if (have < expectedEvents.length || d.hooksDisabled?.(root) === true) return 'partial';
  return 'installed';
}

function isOptOut(d: AgentDescriptor, text: string | null | undefined): boolean {
  return d.emptyConfigOptsOut === true && typeof text === 'string' && text.trim() === '';
}

/**
 * Pure installer: the scripts and the config edit registering them for one agent. Idempotent
 * (re-install is byte-identical, all `unchanged`); user handlers keep content and order; stale
 * managed handlers (any platform, encoded, old dirs) are swept. Throws
 * `ORCA_HOOKS_CONFIG_UNPARSEABLE` / `ORCA_HOOKS_CONFIG_SHAPE` (nothing to write for that agent).
 *
 * @example
 * const r = installAgent({ agent: 'codex', os: 'posix', home: '/home/u', configs: {} });
 * // write r.files (scripts first), then configs whose current text still equals r.expected[path]
 */
export function installAgent(input: InstallInput): InstallResult {
  const d = getAgent(input.agent);
  const path = configPath(d, input.os, input.home, input.env);
  const before = input.configs[path] ?? null;
  if (isOptOut(d, before)) {
    return {
      state: 'opted_out',
      files: [],
      remove: [],
      expected: { [path]: before },
      warnings: [`${path} is empty: ${d.id} hooks opted out`],
    };
  }
  if (d.configShape === 'opencode-plugin') return installPlugin(d, input, path, before);
  const { events, only } = eventsToInstall(d, input.agentVersion);
  const ours: Record<string, unknown[]> = {};
  for (const e of events) ours[e] = entriesFor(d, input, e);
  const edit = editConfig(d, path, before, ours, only);
  const scripts = managedScripts(d, input);
  const files: InstallFile[] = [
    ...scripts,
    { path, content: edit.content, mode: CONFIG_FILE_MODE, action: action(before, edit.content) },
  ];
  const warnings: string[] = [];
  const result: InstallResult = {
    state: stateOf(d, edit.root, events),
    files,
    remove: [],
    expected: { [path]: before },
    warnings,
  };
  if (d.hookTrust === 'codexConfigToml' && codexHasTrust(input.agentVersion)) {
    const previous = before === null ? null : objectMember(parseConfig(before, path, false), 'hooks', path);
    const trust = codexTrustEdit(input, path, previous, objectMember(edit.root, 'hooks', path));
    result.codexTrustKeys = trust.keys;
    result.expected[trust.tomlPath] = trust.toml;
    files.push({
      path: trust.tomlPath,
      content: trust.next,
      mode: CONFIG_FILE_MODE,
      action: action(trust.toml, trust.next),
    });
  }
  if (d.eventGate === 'claudeCodeVersion' && parseVersion(input.agentVersion) === null) {
    warnings.push(`${d.id}: version unknown; installed only the events Claude Code 1.0.64 knows`);
  }
  return result;
}

/** The plugin-shaped install (opencode): the script, then the generated plugin that starts it. */
function installPlugin(d: AgentDescriptor, input: InstallInput, path: string, before: string | null): InstallResult {
  const plugin = pluginFile(d, path, before, input.os, input.home);
  const scripts = managedScripts(d, input);
  return {
    state: 'installed',
    files: [...scripts, { ...plugin, action: action(before, plugin.content) }],
    remove: [],
    expected: { [path]: before },
    warnings: [],
  };
}

/** Pure uninstaller: removes only our handlers (and scripts); user entries stay as they were. */
export function uninstallAgent(input: InstallInput): InstallResult {
  const d = getAgent(input.agent);
  const path = configPath(d, input.os, input.home, input.env);
  const before = input.configs[path] ?? null;
  const remove = scriptFiles(d, input.os, input.home).map((f) => f.path);
  if (d.configShape === 'opencode-plugin') {
    // Why: the plugin goes before the script it starts; a user's file of that name stays.
    const ours = before !== null && isManagedPlugin(before) ? [path] : [];
    return {
      state: 'not_installed',
      files: [],
      remove: [...ours, ...remove],
      expected: { [path]: before },
      warnings: [],
    };
  }
  if (before === null || isOptOut(d, before)) {
    return {
      state: isOptOut(d, before) ? 'opted_out' : 'not_installed',
      files: [],
      remove,
      expected: { [path]: before },
      warnings: [],
    };
  }
  const edit = editConfig(d, path, before, {});
  const files: InstallFile[] = [
    { path, content: edit.content, mode: CONFIG_FILE_MODE, action: action(before, edit.content) },
  ];
  const expected: Record<string, string | null> = { [path]: before };
  if (d.hookTrust === 'codexConfigToml') {
    const previous = objectMember(parseConfig(before, path, false), 'hooks', path);
    const trust = codexTrustEdit(input, path, previous, objectMember(edit.root, 'hooks', path));
    if (trust.toml !== null && trust.next !== trust.toml) {
      expected[trust.tomlPath] = trust.toml;
      files.push({ path: trust.tomlPath, content: trust.next, mode: CONFIG_FILE_MODE, action: 'update' });
    }
  }
  return { state: 'not_installed', files, remove, expected, warnings: [] };
}

/**
 * Install state of one agent from its current config text: `installed`, `partial` (some events,
 * or hooks disabled by the agent's own switch), `not_installed`, `error` (unparseable or wrong
 * shape) or `opted_out` (an empty file where the agent reads that as opting out: Grok).
 */
export function agentStatus(input: InstallInput): AgentInstallState {
  const d = getAgent(input.agent);
  const path = configPath(d, input.os, input.home, input.env);
  const text = input.configs[path] ?? null;
  if (isOptOut(d, text)) return 'opted_out';
  if (d.configShape === 'opencode-plugin') {
    const state = pluginState(text, pluginContent(d, input.os, input.home));
    return state === 'foreign' ? 'error' : state;
  }
  if (text === null) return 'not_installed';
  try {
    const root = parseConfig(text, path, d.configShape === 'devin');
    return stateOf(d, root, eventsToInstall(d, input.agentVersion).events);
  } catch {
    return 'error';
  }
}

/** Every path an install of `agent` reads or writes (configs and scripts). */
export function installPaths(input: Omit<InstallInput, 'configs'>): { configs: string[]; scripts: string[] } {
  const d = getAgent(input.agent);
  const trust = d.hookTrust === 'codexConfigToml' ? [codexConfigTomlPath(input.os, input.home, input.env)] : [];
  return {
    configs: [configPath(d, input.os, input.home, input.env), ...trust],
    scripts: scriptFiles(d, input.os, input.home).map((f) => f.path),
  };
}
