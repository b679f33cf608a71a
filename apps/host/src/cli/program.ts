import { homedir } from 'node:os';
import { formatVerifyReport, nodeVerifyIo, verifyHome } from '@orca/hook-templates/verify';
import { printableBlock, printableField, terminalSafeJson } from '@orca/shared/printable';
import { Command, CommanderError, Option } from 'commander';
import { createAgentVersions } from '../agent-hooks/agent-versions.ts';
import { installHooks } from '../agent-hooks/install-hooks.ts';
import { APP_VERSION, EXIT_OK, EXIT_USAGE, MAX_SCREEN_WORKERS } from '../constants.ts';
import { formatDemoEvent, runDemo } from '../demo/run-demo.ts';
import type { CliContext, GlobalOptions } from './cli-context.ts';
import { addCommandHooksCommands } from './command-hooks-commands.ts';
import { formatHookInstallReport } from './human-lines.ts';
import { addNotifyCommands } from './notify-commands.ts';
import { type CliIo, processIo, reportError, UsageError } from './output.ts';
import { addQueueCommands } from './queue-commands.ts';
import { addResumeCommands } from './resume-commands.ts';
import { addRuntimeCommands } from './runtime-commands.ts';
import { runStart } from './start.ts';
import { addStopCommand } from './stop-command.ts';
import { addWebCommands } from './web-commands.ts';

export type { CliContext, GlobalOptions } from './cli-context.ts';

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    throw new UsageError(`--hook-port expects 0-65535, got ${printableField(value)}`);
  return Number(value);
}

function parseScreenWorkers(value: string): number {
  if (!/^\d{1,2}$/.test(value) || Number(value) > MAX_SCREEN_WORKERS)
    throw new UsageError(`--screen-workers expects 0-${MAX_SCREEN_WORKERS}, got ${printableField(value)}`);
  return Number(value);
}

/**
 * Builds the `orca` command tree. Actions store their exit code in `state.exit`.
 */
export function buildProgram(io: CliIo, state: { exit: number }): Command {
  const program = new Command('orca')
    .description('Run coding agents in real terminals and know what each one is doing.')
    .version(APP_VERSION)
    .option('--json', 'machine-readable output')
    .option('--data-dir <dir>', 'host data directory (default $ORCA_DATA_DIR, else $XDG_DATA_HOME/orca)')
    .option('--debug', 'print stack traces on errors')
    .option('--remote <url>', 'talk to the host listening on ws://127.0.0.1:PORT (orca start --listen)')
    .option('--token-file <path>', "with --remote: the host's runtime-token file (else $ORCA_RUNTIME_TOKEN)")
    .showSuggestionAfterError(true)
    // Why: commander's errors quote argv (`unknown command '…'`).
    .configureOutput({
      writeOut: (s) => io.out(printableBlock(s.trimEnd())),
      writeErr: (s) => io.err(printableBlock(s.trimEnd())),
    })
    .exitOverride();
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();

  program
    .command('demo')
    .description('run the whole pipeline with the bundled demo agent in a temporary data dir')
    .option('--keep', 'keep the temporary directory')
    .action(async (o: { keep?: boolean }) => {
      const json = globals().json === true;
      const ok = await runDemo({
        keep: o.keep === true,
        print: (event) => io.out(json ? terminalSafeJson(event) : formatDemoEvent(event)),
      });
      state.exit = ok ? EXIT_OK : 1;
    });

  program
    .command('start')
    .description('run the host in the foreground until SIGINT/SIGTERM')
    .addOption(new Option('--hook-port <port>', 'preferred hook listener port (0 = any)').argParser(parsePort))
    .addOption(
      new Option(
        '--hook-transport <transport>',
        'how hook scripts post: raw-json-v1 (default, the payload as is) or form',
      ).choices(['raw-json-v1', 'form']),
    )
    .option('--listen <addr>', 'also accept RPC clients on 127.0.0.1:PORT (bearer token in <data-dir>/runtime-token)')
    .option('--web <addr>', 'serve the browser client and its WebSocket on ADDR:PORT (loopback: 127.0.0.1:PORT)')
    .option('--web-bind-any', 'allow --web on a non-loopback address (prints a warning)')
    .option('--no-keeper', 'run the PTYs in this process: panes end with the host (default: the PTY keeper keeps them)')
    .option('--resume', 'start again every agent session that ended with its keeper or host (see `orca resume ls`)')
    .addOption(
      new Option(
        '--screen-workers <n>',
        "worker threads that parse the panes' output (default: cores - 1, 1 to 4; 0 = in the host thread)",
      ).argParser(parseScreenWorkers),
    )
    .action(
      async (o: {
        hookPort?: number;
        hookTransport?: 'form' | 'raw-json-v1';
        screenWorkers?: number;
        listen?: string;
        web?: string;
        webBindAny?: boolean;
        keeper?: boolean;
        resume?: boolean;
      }) => {
        state.exit = await runStart(io, globals(), o);
      },
    );

  const ctx: CliContext = { io, state, globals };
  addRuntimeCommands(program, ctx);
  addQueueCommands(program, ctx);
  addNotifyCommands(program, ctx);
  addStopCommand(program, ctx);
  addResumeCommands(program, ctx);
  addCommandHooksCommands(program, ctx);
  addWebCommands(program, ctx);

  const hooks = program.command('hooks').description('managed agent hooks');
  hooks
    .command('install')
    .description('install managed hooks into agent homes (default your home)')
    .option('--agents <list>', 'comma-separated agents (default all)', parseList)
    .option('--home <dir>', 'agent home to install into (default your home)')
    .option('--dry-run', 'print what would change; change nothing')
    .action(async (o: { agents?: string[]; home?: string; dryRun?: boolean }) => {
      const reports = await installHooks({
        ...(o.home ? { home: o.home } : {}),
        ...(o.agents ? { agents: o.agents } : {}),
        dryRun: o.dryRun === true,
        versions: createAgentVersions(process.env),
      });
      if (globals().json) {
        io.out(terminalSafeJson({ home: o.home ?? null, dryRun: o.dryRun === true, agents: reports }));
      } else {
        for (const r of reports) for (const line of formatHookInstallReport(r, o.dryRun === true)) io.out(line);
      }
      state.exit = reports.some((r) => r.error) ? 1 : EXIT_OK;
    });
  hooks
    .command('verify')
    .description('run the stdin-lifecycle verifier on the managed hooks of a home')
    .option('--home <dir>', 'agent home (default your home)')
    .option('--agents <list>', 'comma-separated agents', parseList)
    .option('--shells <list>', 'comma-separated shells (default all available)', parseList)
    .action(async (o: { home?: string; agents?: string[]; shells?: string[] }) => {
      const report = await verifyHome(
        {
          home: o.home ?? homedir(),
          ...(o.agents ? { agents: o.agents } : {}),
          ...(o.shells ? { shells: o.shells } : {}),
        },
        nodeVerifyIo,
      );
      io.out(globals().json ? terminalSafeJson(report) : printableBlock(formatVerifyReport(report).trimEnd()));
      state.exit = report.ok ? EXIT_OK : 1;
    });
  return program;
}

/**
 * Runs the `orca` CLI with `argv` (without node and script) and returns the exit code:
 * 0 success, 1 refused or failed, 2 usage error.
 *
 * @example
 * process.exitCode = await runCli(['demo']);
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const state = { exit: EXIT_OK };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return state.exit;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return EXIT_OK;
      }
      return EXIT_USAGE;
    }
    const opts = program.opts<GlobalOptions>();
    return reportError(io, error, { json: opts.json === true, debug: opts.debug === true });
  }
}
