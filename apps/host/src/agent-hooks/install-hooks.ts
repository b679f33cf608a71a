import { homedir } from 'node:os';
import { AGENT_IDS } from '@orca/hook-templates/agents';
import { type InstallIo, installAgent, nodeInstallIo } from '@orca/hook-templates/install';
import { HostError } from '../errors.ts';
import type { AgentVersions } from './agent-versions.ts';

/** What happened to one file of one agent. */
export interface InstalledFile {
  readonly path: string;
  readonly action: 'create' | 'update' | 'unchanged' | 'remove';
  readonly mode: number;
}

/** The result for one agent. */
export interface AgentInstallReport {
  readonly agent: string;
  readonly state: string;
  readonly files: InstalledFile[];
  readonly codexTrustGranted?: readonly string[];
  /** The version the installer used and the command that reported it. */
  readonly version?: { readonly version: string; readonly from: string };
  readonly warnings: readonly string[];
  readonly error?: { code: string; message: string };
}

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

type InstallResult = ReturnType<typeof installAgent>;
type AgentEnv = NonNullable<Parameters<typeof installAgent>[0]['env']>;

function envOverrides(env: Readonly<Record<string, string | undefined>>): AgentEnv {
  const out: Record<string, string> = {};
  for (const key of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GROK_HOME', 'COPILOT_HOME', 'APPDATA']) {
    const value = env[key];
    if (value) out[key] = value;
  }
  return out;
}

async function computeInstall(
  agent: string,
  home: string,
  env: AgentEnv,
  fs: InstallFs,
  agentVersion: string | undefined,
): Promise<InstallResult> {
  const version = agentVersion ? { agentVersion } : {};
  const first = installAgent({ agent, os: 'posix', home, env, configs: {}, ...version });
  const configs: Record<string, string | null> = {};
  for (const path of [...Object.keys(first.expected), ...first.files.map((f) => f.path)]) {
    configs[path] = await fs.readText(path);
  }
  return installAgent({ agent, os: 'posix', home, env, configs, ...version });
}

/**
 * Installs Orca's managed hooks into agent homes through `@orca/hook-templates`' pure installers:
 * scripts first, then configs (temp → chmod → rename), each config only if it still holds what
 * the installer read (else recomputed once). `dryRun` writes nothing.
 *
 * @example
 * const reports = await installHooks({ home: '/tmp/home', agents: ['claude'] });
 */
export async function installHooks(
  opts: InstallHooksOptions = {},
  fs: InstallFs = localInstallFs,
): Promise<AgentInstallReport[]> {
  const home = opts.home ?? homedir();
  const env = opts.home ? {} : envOverrides(opts.env ?? process.env);
  const agents = opts.agents && opts.agents.length > 0 ? opts.agents : [...AGENT_IDS];
  const known = new Set<string>(AGENT_IDS);
  const unknown = agents.filter((a) => !known.has(a));
  if (unknown.length > 0) {
    throw new HostError('ORCA_HOST_USAGE', `unknown agent ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  const reports: AgentInstallReport[] = [];
  const detected = opts.versions ? await opts.versions.forAgents(agents.filter((a) => !opts.agentVersions?.[a])) : {};
  for (const agent of agents) {
    const given = opts.agentVersions?.[agent];
    const used = given
      ? { version: given, from: 'agentVersions' }
      : detected[agent]
        ? { version: detected[agent].version, from: detected[agent].command }
        : undefined;
    try {
      let result = await computeInstall(agent, home, env, fs, used?.version);
      if (!opts.dryRun) {
        for (let attempt = 0; ; attempt += 1) {
          const stale = [];
          for (const [path, expected] of Object.entries(result.expected)) {
            if ((await fs.readText(path)) !== expected) stale.push(path);
          }
          if (stale.length === 0) break;
          if (attempt > 0) {
            throw new HostError('ORCA_HOST_HOOKS', `${stale.join(', ')} kept changing while installing; try again`);
          }
          result = await computeInstall(agent, home, env, fs, used?.version);
        }
        const scripts = result.files.filter((f) => !(f.path in result.expected));
        const configs = result.files.filter((f) => f.path in result.expected);
        for (const file of [...scripts, ...configs]) {
          if (file.action !== 'unchanged') await fs.writeAtomic(file.path, file.content, file.mode);
        }
        for (const path of result.remove) await fs.remove(path);
      }
      reports.push({
        agent,
        state: String(result.state),
        files: [
          ...result.files.map((f) => ({ path: f.path, action: f.action, mode: f.mode })),
          ...result.remove.map((path) => ({ path, action: 'remove' as const, mode: 0 })),
        ],
        ...(result.codexTrustKeys ? { codexTrustGranted: result.codexTrustKeys.map((k) => k.key) } : {}),
        ...(used ? { version: used } : {}),
        warnings: result.warnings,
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      reports.push({
        agent,
        state: 'error',
        files: [],
        warnings: [],
        error: { code: typeof code === 'string' ? code : 'ORCA_HOST_HOOKS', message: (error as Error).message },
      });
    }
  }
  return reports;
}
