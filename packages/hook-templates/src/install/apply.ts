import { HookTemplatesError, type HookTemplatesErrorCode } from '../errors.ts';
import {
  type AgentInstallState,
  type InstallInput,
  type InstallResult,
  installAgent,
  installPaths,
  uninstallAgent,
} from './install.ts';
import type { InstallIo } from './install-io.ts';
import type { AgentEnvOverrides } from './paths.ts';

/** A version the installer used: `from` is the command that printed it (or the flag that gave it). */
export interface AgentVersionUsed {
  version: string;
  from: string;
}

/** Options of {@link applyInstall}. */
export interface ApplyInstallOptions {
  home: string;
  agents: readonly string[];
  os: 'posix' | 'windows';
  /** Agent home overrides (`CLAUDE_CONFIG_DIR`, …); see `agentEnvOverrides`. */
  env?: AgentEnvOverrides;
  /** Installed agent versions (event gates, Codex trust); a missing agent = unknown version. */
  versions?: Readonly<Record<string, AgentVersionUsed>>;
  /** Windows: launch POSIX scripts through Git Bash. */
  gitBash?: boolean;
  /** Read and report; write nothing. */
  dryRun?: boolean;
  /** Remove Orca's managed entries and scripts instead of installing them. */
  uninstall?: boolean;
}

/** What happened to one file: `remove` for a script uninstall deleted, `refused` for a config left alone. */
export type InstallAction = 'create' | 'update' | 'unchanged' | 'remove' | 'refused';

/** One agent's outcome. */
export interface InstallReport {
  agent: string;
  state: AgentInstallState;
  files: { path: string; action: InstallAction; mode: number }[];
  codexTrustGranted?: string[];
  version?: AgentVersionUsed;
  warnings: string[];
  error?: { code: HookTemplatesErrorCode; message: string };
}

async function compute(io: InstallIo, base: Omit<InstallInput, 'configs'>, uninstall: boolean): Promise<InstallResult> {
  const paths = installPaths(base);
  const configs: Record<string, string | null> = {};
  for (const path of [...paths.configs, ...paths.scripts]) configs[path] = await io.readText(path);
  return uninstall ? uninstallAgent({ ...base, configs }) : installAgent({ ...base, configs });
}

async function staleConfigs(io: InstallIo, result: InstallResult): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, expected] of Object.entries(result.expected)) {
    if ((await io.readText(path)) !== expected) stale.push(path);
  }
  return stale;
}

async function write(io: InstallIo, result: InstallResult): Promise<void> {
  // Why: scripts land before the configs that launch them, so an agent never runs a missing script.
  const isConfig = (path: string) => path in result.expected;
  for (const file of [
    ...result.files.filter((f) => !isConfig(f.path)),
    ...result.files.filter((f) => isConfig(f.path)),
  ]) {
    if (file.action !== 'unchanged') await io.writeAtomic(file.path, file.content, file.mode);
  }
  for (const path of result.remove) await io.remove(path);
}

async function applyOne(io: InstallIo, opts: ApplyInstallOptions, agent: string): Promise<InstallReport> {
  const version = opts.versions?.[agent];
  const base: Omit<InstallInput, 'configs'> = {
    agent,
    os: opts.os,
    home: opts.home,
    env: opts.env ?? {},
    gitBash: opts.gitBash === true,
    ...(version !== undefined ? { agentVersion: version.version } : {}),
  };
  const uninstall = opts.uninstall === true;
  let result = await compute(io, base, uninstall);
  if (opts.dryRun !== true) {
    let stale = await staleConfigs(io, result);
    if (stale.length > 0) {
      result = await compute(io, base, uninstall);
      stale = await staleConfigs(io, result);
      if (stale.length > 0) {
        throw new HookTemplatesError(
          'ORCA_HOOKS_CONFIG_BUSY',
          `${stale.join(', ')} kept changing during install; try again`,
          {
            context: { path: stale[0], paths: stale },
          },
        );
      }
    }
    await write(io, result);
  }
  return {
    agent,
    state: result.state,
    files: [
      ...result.files.map((f) => ({ path: f.path, action: f.action, mode: f.mode })),
      ...result.remove.map((path) => ({ path, action: 'remove' as const, mode: 0 })),
    ],
    ...(result.codexTrustKeys ? { codexTrustGranted: result.codexTrustKeys.map((k) => k.key) } : {}),
    ...(version ? { version } : {}),
    warnings: result.warnings,
  };
}

function errorReport(agent: string, error: unknown): InstallReport {
  const known = error instanceof HookTemplatesError;
  const path = known && typeof error.context.path === 'string' ? error.context.path : '';
  return {
    agent,
    state: 'error',
    files: path ? [{ path, action: 'refused', mode: 0 }] : [],
    warnings: [],
    error: {
      code: known ? error.code : 'ORCA_HOOKS_IO',
      message: error instanceof Error ? error.message : String(error),
    },
  };
}

/**
 * The install transaction, per agent: read every file the installer touches through `io`, compute
 * with the pure installers, re-read each config just before writing and recompute once if another
 * process changed it, then write scripts before configs (temp → chmod → rename in `io`) and remove
 * what an uninstall drops. One agent's failure is its report's `error`; the others go on.
 *
 * @example
 * const reports = await applyInstall(nodeInstallIo, { home: '/tmp/h', agents: ['claude'], os: 'posix' });
 * // [{ agent: 'claude', state: 'installed', files: [{ path: '/tmp/h/.claude/settings.json', action: 'create', … }, …] }]
 */
export async function applyInstall(io: InstallIo, opts: ApplyInstallOptions): Promise<InstallReport[]> {
  const reports: InstallReport[] = [];
  for (const agent of opts.agents) {
    try {
      reports.push(await applyOne(io, opts, agent));
    } catch (error) {
      reports.push(errorReport(agent, error));
    }
  }
  return reports;
}
