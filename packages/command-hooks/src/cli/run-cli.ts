import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { printableBlock } from '@orca/shared/printable';
import { Command, CommanderError, Option } from 'commander';
import { CommandHooksError } from '../errors.ts';
import { PACKAGE_VERSION } from '../internal/version.ts';
import {
  buildDryRunReport,
  buildListReport,
  formatDryRunReport,
  formatListReport,
  formatReportJson,
  reportExitCode,
} from '../reports/index.ts';
import { describeFailure } from './human-lines.ts';

/** Where the CLI reads and writes (injectable for tests). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Exit codes of `orca-command-hooks`. */
export const CLI_EXIT = { ok: 0, configErrors: 1, usage: 2 } as const;

async function readPayloadText(spec: string, io: CliIo): Promise<string> {
  if (spec === '-') return io.readStdin();
  if (spec.startsWith('@')) {
    try {
      return await readFile(spec.slice(1), 'utf8');
    } catch (error) {
      throw new CommandHooksError(
        'ORCA_CMDHOOKS_USAGE',
        `--payload: cannot read ${spec.slice(1)}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return spec;
}

/**
 * The `orca-command-hooks` CLI, callable in-process: returns the exit code (0 ran, 1 config
 * errors, 2 usage error or invalid payload).
 *
 * @example
 * const code = await runCli(['list', '--root', '.', '--json'], io);
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = CLI_EXIT.ok;
  const program = new Command('orca-command-hooks')
    .description("Run users' Claude Code, Cursor and Orca command hooks")
    .version(PACKAGE_VERSION)
    .exitOverride()
    // Why: commander's errors quote argv (`unknown option '…'`).
    .configureOutput({ writeOut: (t) => io.stdout(printableBlock(t)), writeErr: (t) => io.stderr(printableBlock(t)) });

  program
    .command('list')
    .description('List discovered hooks, warnings and errors')
    .requiredOption('--root <dir>', 'project root')
    .option('--home <dir>', "home directory (default: the current user's)")
    .option('--json', 'print JSON')
    .action(async (o: { root: string; home?: string; json?: boolean }) => {
      const report = await buildListReport(o.root, { home: o.home ?? os.homedir() });
      io.stdout(
        o.json
          ? `${formatReportJson(report)}\n`
          : formatListReport(report)
              .map((l) => `${l}\n`)
              .join(''),
      );
      exitCode = reportExitCode(report) === 0 ? CLI_EXIT.ok : CLI_EXIT.configErrors;
    });

  program
    .command('dry-run')
    .description('Run every matching hook of one event for real and print the merged outcome and records')
    .requiredOption('--root <dir>', 'project root')
    .option('--home <dir>', "home directory (default: the current user's)")
    .requiredOption('--event <event>', 'canonical event (toolGate, beforeSubmitPrompt, stop, …)')
    .requiredOption('--payload <json>', 'payload as JSON, @FILE, or - for stdin')
    .option('--conversation <id>', 'conversation id')
    .addOption(new Option('--policy <policy>', 'failure policy').choices(['vendor', 'strict']).default('vendor'))
    .option('--json', 'print JSON')
    .action(
      async (o: {
        root: string;
        home?: string;
        event: string;
        payload: string;
        conversation?: string;
        policy: string;
        json?: boolean;
      }) => {
        const report = await buildDryRunReport({
          root: o.root,
          home: o.home ?? os.homedir(),
          event: o.event,
          payloadText: await readPayloadText(o.payload, io),
          policy: o.policy,
          ...(o.conversation !== undefined ? { conversationId: o.conversation } : {}),
          ...(io.env ? { baseEnv: io.env } : {}),
        });
        io.stdout(
          o.json
            ? `${formatReportJson(report)}\n`
            : formatDryRunReport(report)
                .map((l) => `${l}\n`)
                .join(''),
        );
        exitCode = reportExitCode(report) === 0 ? CLI_EXIT.ok : CLI_EXIT.configErrors;
      },
    );

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return CLI_EXIT.ok;
      }
      return CLI_EXIT.usage;
    }
    if (error instanceof CommandHooksError) {
      io.stderr(`${describeFailure(error.message)}\n`);
      return CLI_EXIT.usage;
    }
    io.stderr(`${describeFailure(error instanceof Error ? error.message : String(error))}\n`);
    return CLI_EXIT.usage;
  }
  return exitCode;
}
