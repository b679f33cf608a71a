import type { AgentDescriptor } from '../agents/descriptor.ts';
import { CONFIG_FILE_MODE } from '../constants.ts';
import { HookTemplatesError } from '../errors.ts';
import { OPENCODE_PLUGIN_MARKER, opencodePluginLaunch, opencodePluginSource } from './opencode-plugin.ts';
import { launchedScriptPath } from './scripts.ts';

/** What the plugin-shaped install states read: ours and current, ours but stale, absent, or a user's. */
export type PluginFileState = 'installed' | 'partial' | 'not_installed' | 'foreign';

/** The plugin file Orca writes for `d` on `os` (it starts the managed script of `home`). */
export function pluginContent(d: AgentDescriptor, os: 'posix' | 'windows', home: string): string {
  const script = launchedScriptPath(d, os, home, d.events[0] ?? '');
  return opencodePluginSource(opencodePluginLaunch(os, script));
}

/** Whether `text` is a plugin file Orca wrote (any version, any home). */
export function isManagedPlugin(text: string): boolean {
  return text.startsWith(OPENCODE_PLUGIN_MARKER);
}

/** The state of the plugin file at its path from its current text. */
export function pluginState(text: string | null, expected: string): PluginFileState {
  if (text === null) return 'not_installed';
  if (!isManagedPlugin(text)) return 'foreign';
  return text === expected ? 'installed' : 'partial';
}

/**
 * The plugin file to write, or `ORCA_HOOKS_CONFIG_SHAPE` when a file Orca did not write holds its
 * path (a user's plugin is never overwritten).
 */
export function pluginFile(
  d: AgentDescriptor,
  path: string,
  before: string | null,
  os: 'posix' | 'windows',
  home: string,
): { path: string; content: string; mode: number } {
  const content = pluginContent(d, os, home);
  if (pluginState(before, content) === 'foreign') {
    throw new HookTemplatesError(
      'ORCA_HOOKS_CONFIG_SHAPE',
      `${path} exists and was not written by Orca; move it away to install ${d.id} status hooks`,
      { context: { agent: d.id, path } },
    );
  }
  return { path, content, mode: CONFIG_FILE_MODE };
}
