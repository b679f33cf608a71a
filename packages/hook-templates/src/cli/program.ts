import { printableField as p, printableBlock, terminalSafeJson } from '@orca/shared/printable';
import { Command, CommanderError, Option } from 'commander';
import { AGENT_LIST, getAgent } from '../agents/registry.ts';
import { AGENT_IDS } from '../agents/sources.ts';
import { emitScript } from '../emit/script.ts';
import { HookTemplatesError, type HookTemplatesErrorCode } from '../errors.ts';
import { type AgentVersionUsed, applyInstall } from '../install/apply.ts';
import type { InstallIo } from '../install/node-io.ts';
import { agentEnvOverrides, configPath } from '../install/paths.ts';
import { PACKAGE_VERSION } from '../internal/package-version.ts';
import { launcherCommand } from '../launchers/for-agent.ts';
import { LAUNCHER_FORMS, type LauncherForm } from '../launchers/spec.ts';
import { installTargets, planFor } from '../plan/plan-for.ts';
import type { Target } from '../plan/types.ts';
import type { VerifyIo } from '../verify/io.ts';
import { formatVerifyReport, VERIFY_SHELLS, verifyHome } from '../verify/verify.ts';
import { detectAgentVersion, type VersionProbe } from '../versions/agent-version.ts';
import { formatInstallReports } from './format-install.ts';

/** Version printed by `--version`: this package's own. */
export const CLI_VERSION = PACKAGE_VERSION;

/** Everything the CLI touches (real ones in `src/cli.ts`). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  install: InstallIo;
  verify: VerifyIo;
  homedir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Runs an agent's `--version` (absent: versions are not detected). */
  versionProbe?: VersionProbe;
}

/**
 * The version each agent is installed at: an explicit `--claude-version` wins; otherwise the agent's
 * own `--version`, when it is on PATH.
 */
async function versionsFor(
  agents: readonly string[],
  probe: VersionProbe | undefined,
  claudeVersion: string | undefined,
): Promise<Record<string, AgentVersionUsed>> {
  const out: Record<string, AgentVersionUsed> = {};
  for (const agent of agents) {
    if (agent === 'claude' && claudeVersion !== undefined) {
      out[agent] = { version: claudeVersion, from: '--claude-version' };
      continue;
    }
    const found = probe ? await detectAgentVersion(agent, probe) : null;
    if (found) out[agent] = { version: found.version, from: found.command };
  }
  return out;
}

/** Codes a caller's bad arguments give: exit code 2. */
const USAGE_CODES: ReadonlySet<HookTemplatesErrorCode> = new Set([
  'ORCA_HOOKS_USAGE',
  'ORCA_HOOKS_UNKNOWN_AGENT',
  'ORCA_HOOKS_UNSUPPORTED_TARGET',
]);

function usageError(message: string): HookTemplatesError {
  return new HookTemplatesError('ORCA_HOOKS_USAGE', message);
}

const PLATFORM_TARGET: Record<string, Target> = {
  posix: { os: 'posix', dialect: 'sh' },
  batch: { os: 'windows', dialect: 'batch' },
  pwsh: { os: 'windows', dialect: 'pwsh' },
};

function agentList(value: string | undefined): string[] {
  if (value === undefined || value === '') return [...AGENT_IDS];
  const agents = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const a of agents) getAgent(a);
  return agents;
}

function stdoutKind(agent: string): '{}' | 'per-event' | 'none' {
  const p = getAgent(agent).protocol;
  if (p === null) return 'none';
  return 'fixed' in p ? '{}' : 'per-event';
}

function platformOf(value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value))
    throw usageError(`unknown platform ${JSON.stringify(value.slice(0, 200))}; expected ${allowed.join('|')}`);
  return value;
}

function buildProgram(io: CliIo): Command {
  const program = new Command('orca-hooks')
    .description('Compile, install and verify stdin-safe Orca agent hooks')
    .version(CLI_VERSION)
    .exitOverride()
    // Why: commander's errors quote argv (`unknown option '…'`).
    .configureOutput({ writeOut: (t) => io.stdout(printableBlock(t)), writeErr: (t) => io.stderr(printableBlock(t)) })
    .showHelpAfterError(false);
  const json = (v: unknown) => io.stdout(`${terminalSafeJson(v, 2)}\n`);

  program
    .command('list')
    .description('agents, sources, targets, events, config paths and protocol stdout')
    .option('--json', 'JSON output')
    .action((o: { json?: boolean }) => {
      const rows = AGENT_LIST.map((d) => ({
        agent: d.id,
        source: d.source,
        targets: installTargets(d).map((t) => `${t.os}/${t.dialect}`),
        events: [...d.events],
        config: configPath(d, 'posix', '~'),
        stdout: stdoutKind(d.id),
      }));
      if (o.json) json(rows);
      else
        io.stdout(
          rows
            .map((r) => [r.agent, r.source, r.config, r.stdout, r.events.join(',')].map(p).join('\t'))
            .join('\n')
            .concat('\n'),
        );
    });

  program
    .command('emit <agent>')
    // Why: not escaped: the script is byte-exact and built only from our own templates.
    .description("print an agent's hook script, byte-exact")
    .requiredOption('--platform <platform>', 'posix|batch|pwsh')
    .action((agent: string, o: { platform: string }) => {
      getAgent(agent);
      const target = PLATFORM_TARGET[platformOf(o.platform, Object.keys(PLATFORM_TARGET))];
      if (target === undefined) throw usageError('unknown platform');
      io.stdout(emitScript(planFor(agent, target)));
    });

  program
    .command('launcher <agent>')
    .description('print the command an agent config runs')
    .requiredOption('--platform <platform>', 'posix|windows')
    .requiredOption('--script <path>', 'script path')
    .option('--event <event>', 'vendor event name')
    .addOption(new Option('--form <form>', 'launcher form').choices([...LAUNCHER_FORMS]))
    .option('--json', 'JSON output')
    .action(
      (agent: string, o: { platform: string; script: string; event?: string; form?: LauncherForm; json?: boolean }) => {
        const platform = platformOf(o.platform, ['posix', 'windows']) as 'posix' | 'windows';
        const r = launcherCommand({
          agent,
          platform,
          script: o.script,
          ...(o.event !== undefined ? { event: o.event } : {}),
          ...(o.form !== undefined ? { form: o.form } : {}),
        });
        if (o.json) json(r);
        else io.stdout(`${p(r.command)}\n`);
      },
    );

  const installLike = (name: 'install' | 'uninstall') => {
    const cmd = program
      .command(name)
      .description(name === 'install' ? 'install managed hooks into agent configs' : 'remove managed hooks only')
      .option('--home <dir>', 'agent home (default: your home; agent env overrides apply only then)')
      .option('--agents <list>', 'comma-separated agents (default all)')
      .option('--dry-run', 'compute, write nothing')
      .option('--json', 'JSON output');
    if (name === 'install') {
      cmd
        .option('--platform <platform>', 'posix|windows', 'posix')
        .option('--claude-version <version>', 'installed Claude Code version (event gate)')
        .option('--git-bash', 'Claude runs hooks through Git Bash (Windows)');
    }
    cmd.action(
      async (o: {
        home?: string;
        agents?: string;
        dryRun?: boolean;
        json?: boolean;
        platform?: string;
        claudeVersion?: string;
        gitBash?: boolean;
      }) => {
        const platform = platformOf(o.platform ?? 'posix', ['posix', 'windows']) as 'posix' | 'windows';
        const home = o.home ?? io.homedir;
        const env = o.home === undefined ? agentEnvOverrides(io.env) : {};
        const agents = agentList(o.agents);
        const versions = name === 'install' ? await versionsFor(agents, io.versionProbe, o.claudeVersion) : {};
        const reports = await applyInstall(io.install, {
          home,
          agents,
          os: platform,
          env,
          versions,
          gitBash: o.gitBash === true,
          dryRun: o.dryRun === true,
          uninstall: name === 'uninstall',
        });
        if (o.json) json({ home, dryRun: o.dryRun === true, agents: reports });
        else io.stdout(formatInstallReports(reports));
        if (reports.some((r) => r.error)) process.exitCode = 1;
      },
    );
  };
  installLike('install');
  installLike('uninstall');

  program
    .command('verify')
    .description('run every managed POSIX command in a home for real, under every available shell')
    .option('--home <dir>', 'agent home (default: your home)')
    .option('--shells <list>', `comma-separated of ${Object.keys(VERIFY_SHELLS).join(',')}`)
    .option('--agents <list>', 'comma-separated agents (default all)')
    .option('--json', 'JSON output')
    .action(async (o: { home?: string; shells?: string; agents?: string; json?: boolean }) => {
      const shells = o.shells
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const s of shells ?? [])
        if (!(s in VERIFY_SHELLS)) throw usageError(`unknown shell ${JSON.stringify(s.slice(0, 200))}`);
      const report = await verifyHome(
        { home: o.home ?? io.homedir, agents: agentList(o.agents), ...(shells ? { shells } : {}) },
        io.verify,
      );
      if (o.json) json(report);
      else io.stdout(formatVerifyReport(report));
      if (!report.ok) process.exitCode = 1;
    });
  return program;
}

/**
 * Runs `orca-hooks` with `argv` (without node and script); resolves to the exit code: 0 ok,
 * 1 failure, 2 usage.
 *
 * @example
 * const code = await runCli(['emit', 'codex', '--platform', 'posix'], io);
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
        ? 0
        : 2;
    }
    if (error instanceof HookTemplatesError) {
      io.stderr(`orca-hooks: ${p(error.code)}: ${p(error.message)}\n`);
      return USAGE_CODES.has(error.code) ? 2 : 1;
    }
    io.stderr(`orca-hooks: ${p(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  } finally {
    process.exitCode = before;
  }
}
