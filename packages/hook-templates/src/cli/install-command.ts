import { HookTemplatesError } from '../errors.ts';
import {
  type AgentInstallState,
  type InstallInput,
  type InstallResult,
  installAgent,
  installPaths,
  uninstallAgent,
} from '../install/install.ts';
import type { InstallIo } from '../install/node-io.ts';
import type { AgentEnvOverrides } from '../install/paths.ts';
import { printableField as p } from '../internal/printable.ts';

/** Options of {@link runInstall}. */
export interface InstallCommandOptions {
  home: string;
  agents: readonly string[];
  platform: 'posix' | 'windows';
  env: AgentEnvOverrides;
  /** Installed agent versions (event gates, Codex trust) and where each came from; missing = unknown. */
  versions?: Readonly<Record<string, AgentVersionUsed>>;
  gitBash: boolean;
  dryRun: boolean;
  uninstall: boolean;
}

/** A version the installer used: `from` is the command that printed it, or `--claude-version`. */
export interface AgentVersionUsed {
  version: string;
  from: string;
}

/** One agent's line of the report. */
export interface AgentReport {
  agent: string;
  state: AgentInstallState;
  files: { path: string; action: string; mode: number }[];
  codexTrustGranted?: string[];
  /** The agent version the installer used, and where it came from. */
  version?: AgentVersionUsed;
  warnings: string[];
  error?: { code: string; message: string };
}

async function compute(io: InstallIo, base: Omit<InstallInput, 'configs'>, uninstall: boolean): Promise<InstallResult> {
  const paths = installPaths(base);
  const configs: Record<string, string | null> = {};
  for (const p of [...paths.configs, ...paths.scripts]) configs[p] = await io.readText(p);
  return uninstall ? uninstallAgent({ ...base, configs }) : installAgent({ ...base, configs });
}

/**
 * Installs (or uninstalls) agents into `home` through the pure installers: scripts first, then
 * each config only if it still holds what was read (recomputed once otherwise).
 */
export async function runInstall(opts: InstallCommandOptions, io: InstallIo): Promise<AgentReport[]> {
  const reports: AgentReport[] = [];
  for (const agent of opts.agents) {
    const base: Omit<InstallInput, 'configs'> = {
      agent,
      os: opts.platform,
      home: opts.home,
      env: opts.env,
      gitBash: opts.gitBash,
      ...(opts.versions?.[agent] !== undefined ? { agentVersion: opts.versions[agent].version } : {}),
    };
    try {
      let result = await compute(io, base, opts.uninstall);
      if (!opts.dryRun) {
        for (let attempt = 0; ; attempt++) {
          const stale: string[] = [];
          for (const [path, expected] of Object.entries(result.expected)) {
            if ((await io.readText(path)) !== expected) stale.push(path);
          }
          if (stale.length === 0) break;
          if (attempt > 0)
            throw new HookTemplatesError('ORCA_HOOKS_CONFIG_SHAPE', `${stale.join(', ')} kept changing during install`);
          result = await compute(io, base, opts.uninstall);
        }
        const isConfig = (p: string) => p in result.expected;
        for (const f of [
          ...result.files.filter((f) => !isConfig(f.path)),
          ...result.files.filter((f) => isConfig(f.path)),
        ]) {
          if (f.action !== 'unchanged') await io.writeAtomic(f.path, f.content, f.mode);
        }
        for (const p of result.remove) await io.remove(p);
      }
      reports.push({
        agent,
        state: result.state,
        files: result.files.map((f) => ({ path: f.path, action: f.action, mode: f.mode })),
        ...(result.codexTrustKeys ? { codexTrustGranted: result.codexTrustKeys.map((k) => k.key) } : {}),
        ...(opts.versions?.[agent] ? { version: opts.versions[agent] } : {}),
        warnings: result.warnings,
      });
    } catch (error) {
      const code = error instanceof HookTemplatesError ? error.code : 'ORCA_HOOKS_CONFIG_UNPARSEABLE';
      const path =
        error instanceof HookTemplatesError && typeof error.context.path === 'string' ? error.context.path : '';
      reports.push({
        agent,
        state: 'error',
        files: path ? [{ path, action: 'refused', mode: 0 }] : [],
        warnings: [],
        error: { code, message: error instanceof Error ? error.message : String(error) },
      });
    }
  }
  return reports;
}

/**
 * Text lines: `create|update|unchanged|refused PATH [code]`. Paths, versions (an agent's own
 * `--version` output) and warnings come from outside: control characters are escaped (`\x1b`).
 */
export function formatInstallReports(reports: readonly AgentReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (r.version) lines.push(`# ${p(r.agent)} ${p(r.version.version)} (from ${p(r.version.from)})`);
    for (const f of r.files)
      lines.push(`${p(f.action)} ${p(f.path)}${f.action === 'refused' && r.error ? ` ${p(r.error.code)}` : ''}`);
    if (r.error && r.files.length === 0) lines.push(`refused ${p(r.agent)} ${p(r.error.code)}`);
    for (const w of r.warnings) lines.push(`# ${p(w)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
