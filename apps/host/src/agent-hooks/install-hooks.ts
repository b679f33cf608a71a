import { homedir } from 'node:os';
import { AGENT_IDS } from '@orca/hook-templates/agents';
import {
  type AgentVersionUsed,
  agentEnvOverrides,
  applyInstall,
  type InstallIo,
  type InstallReport,
} from '@orca/hook-templates/install';
import { nodeInstallIo } from '@orca/hook-templates/node-io';
import { HostError } from '../errors.ts';
import type { AgentVersions } from './agent-versions.ts';

/** One agent's install outcome: `@orca/hook-templates`' report, unchanged. */
export type AgentInstallReport = InstallReport;

/** Options of {@link installHooks}. */
export interface InstallHooksOptions {
  /** The agent home; default the user's home (then agent env overrides such as `CLAUDE_CONFIG_DIR` apply). */
  readonly home?: string;
  readonly agents?: readonly string[];
  readonly dryRun?: boolean;
  /** Installed agent versions (e.g. `{ claude: '2.1.80' }`): gates which events are registered. */
  readonly agentVersions?: Readonly<Record<string, string>>;
  /** Detects versions not given in `agentVersions` (the host's once-per-start cache). */
  readonly versions?: AgentVersions;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Minimal file-system adapter: the real one by default, the guest fs bridge for guests. */
export type InstallFs = InstallIo;

/** The host's own file system (hook-templates' writer: atomic, symlinked configs written through). */
export const localInstallFs: InstallFs = nodeInstallIo;

/**
 * Installs Orca's managed hooks into agent homes through `@orca/hook-templates`' install
 * transaction (`applyInstall`): scripts first, then configs (temp → chmod → rename), each config
 * only if it still holds what the installer read (else recomputed once). `dryRun` writes nothing.
 * The host adds its defaults (the user's home and env overrides, every agent, detected versions).
 *
 * @example
 * const reports = await installHooks({ home: '/tmp/home', agents: ['claude'] });
 */
export async function installHooks(
  opts: InstallHooksOptions = {},
  fs: InstallFs = localInstallFs,
): Promise<AgentInstallReport[]> {
  const home = opts.home ?? homedir();
  const env = opts.home ? {} : agentEnvOverrides(opts.env ?? process.env);
  const agents = opts.agents && opts.agents.length > 0 ? opts.agents : [...AGENT_IDS];
  const known = new Set<string>(AGENT_IDS);
  const unknown = agents.filter((a) => !known.has(a));
  if (unknown.length > 0) {
    throw new HostError('ORCA_HOST_USAGE', `unknown agent ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  const detected = opts.versions ? await opts.versions.forAgents(agents.filter((a) => !opts.agentVersions?.[a])) : {};
  const versions: Record<string, AgentVersionUsed> = {};
  for (const agent of agents) {
    const given = opts.agentVersions?.[agent];
    const found = detected[agent];
    if (given) versions[agent] = { version: given, from: 'agentVersions' };
    else if (found) versions[agent] = { version: found.version, from: found.command };
  }
  return applyInstall(fs, { home, agents, os: 'posix', env, versions, dryRun: opts.dryRun === true });
}
