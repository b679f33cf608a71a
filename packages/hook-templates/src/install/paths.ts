import { posix, win32 } from 'node:path';
import type { AgentDescriptor, AgentEnvOverrides } from '../agents/descriptor.ts';
import { AGENT_LIST } from '../agents/registry.ts';
import { AGENT_HOOKS_DIR } from '../constants.ts';

export type { AgentEnvOverrides };

/** Every variable a descriptor's `configEnv` names, in registry order, once. */
export const AGENT_ENV_OVERRIDE_KEYS: readonly string[] = [...new Set(AGENT_LIST.flatMap((d) => d.configEnv))];

/** The agent home overrides set (non-empty) in `env`, e.g. `process.env`. */
export function agentEnvOverrides(env: Readonly<Record<string, string | undefined>>): AgentEnvOverrides {
  const out: Record<string, string> = {};
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

/** The config file an agent's hooks live in (spec §2): the descriptor's `configPath`. */
export function configPath(
  d: AgentDescriptor,
  os: 'posix' | 'windows',
  home: string,
  env: AgentEnvOverrides = {},
): string {
  const only: Record<string, string> = {};
  for (const key of d.configEnv) {
    const value = env[key];
    if (value) only[key] = value;
  }
  return d.configPath({ os, home, env: only, join: (...parts) => joinFor(os, ...parts) });
}

/** Codex's `config.toml` (trust entries) beside its hooks.json. */
export function codexConfigTomlPath(os: 'posix' | 'windows', home: string, env: AgentEnvOverrides = {}): string {
  return joinFor(os, env.CODEX_HOME || joinFor(os, home, '.codex'), 'config.toml');
}
