import { posix, win32 } from 'node:path';
import type { AgentDescriptor } from '../agents/descriptor.ts';
import { AGENT_HOOKS_DIR } from '../constants.ts';

/** Agent home overrides honoured by the installers (only when the caller passes them). */
export interface AgentEnvOverrides {
  CLAUDE_CONFIG_DIR?: string;
  CODEX_HOME?: string;
  GROK_HOME?: string;
  COPILOT_HOME?: string;
  APPDATA?: string;
}

/** The variables {@link AgentEnvOverrides} names, in one place. */
export const AGENT_ENV_OVERRIDE_KEYS = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GROK_HOME',
  'COPILOT_HOME',
  'APPDATA',
] as const;

/** The agent home overrides set (non-empty) in `env`, e.g. `process.env`. */
export function agentEnvOverrides(env: Readonly<Record<string, string | undefined>>): AgentEnvOverrides {
  const out: AgentEnvOverrides = {};
  for (const key of AGENT_ENV_OVERRIDE_KEYS) {
    const value = env[key];
    if (value) out[key] = value;
  }
  return out;
}

/** Pure path joining for the target OS (no I/O). */
export function joinFor(os: 'posix' | 'windows', ...parts: string[]): string {
  return os === 'posix' ? posix.join(...parts) : win32.join(...parts);
}

/** `<home>/.orca/agent-hooks` on the target OS. */
export function hooksDir(os: 'posix' | 'windows', home: string): string {
  return joinFor(os, home, ...AGENT_HOOKS_DIR.split('/'));
}

/** The config file an agent's hooks live in (spec §2). */
export function configPath(
  d: AgentDescriptor,
  os: 'posix' | 'windows',
  home: string,
  env: AgentEnvOverrides = {},
): string {
  const j = (...p: string[]) => joinFor(os, ...p);
  switch (d.id) {
    case 'claude':
      return j(env.CLAUDE_CONFIG_DIR || j(home, '.claude'), 'settings.json');
    case 'openclaude':
      return j(home, '.openclaude', 'settings.json');
    case 'codex':
      return j(env.CODEX_HOME || j(home, '.codex'), 'hooks.json');
    case 'gemini':
      return j(home, '.gemini', 'settings.json');
    case 'antigravity':
      return j(home, '.gemini', 'config', 'hooks.json');
    case 'cursor':
      return j(home, '.cursor', 'hooks.json');
    case 'droid':
      return j(home, '.factory', 'settings.json');
    case 'devin':
      return os === 'windows'
        ? j(env.APPDATA || j(home, 'AppData', 'Roaming'), 'devin', 'config.json')
        : j(home, '.config', 'devin', 'config.json');
    case 'grok':
      return j(env.GROK_HOME || j(home, '.grok'), 'hooks', 'orca-status.json');
    case 'copilot':
      return j(env.COPILOT_HOME || j(home, '.copilot'), 'hooks', 'orca.json');
    case 'command-code':
      return j(home, '.commandcode', 'settings.json');
  }
}

/** Codex's `config.toml` (trust entries) beside its hooks.json. */
export function codexConfigTomlPath(os: 'posix' | 'windows', home: string, env: AgentEnvOverrides = {}): string {
  return joinFor(os, env.CODEX_HOME || joinFor(os, home, '.codex'), 'config.toml');
}
