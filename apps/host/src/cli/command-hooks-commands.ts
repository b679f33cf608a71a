import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { CommandHooksError } from '@orca/command-hooks';
import {
  buildDryRunReport,
  buildListReport,
  formatDryRunReport,
  formatListReport,
  reportExitCode,
} from '@orca/command-hooks/reports';
import { terminalSafeJson } from '@orca/shared/printable';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { CliContext } from './cli-context.ts';
import { UsageError } from './output.ts';

function readPayloadText(spec: string): string {
  try {
    if (spec === '-') return readFileSync(0, 'utf8');
    if (spec.startsWith('@')) return readFileSync(spec.slice(1), 'utf8');
  } catch (error) {
    throw new UsageError(`--payload: cannot read ${spec.slice(1) || 'stdin'}: ${(error as Error).message}`);
  }
  return spec;
}

/** The library's refusals of bad input are usage errors here (exit 2), like every other CLI input. */
async function asUsage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CommandHooksError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `orca command-hooks list|dry-run`: a thin shell over `@orca/command-hooks/reports`, the same
 * reports (and JSON shape) as `orca-command-hooks`.
 */
export function addCommandHooksCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const group = program.command('command-hooks').description("the user's own Claude/Cursor/Orca command hooks");
  group
    .command('list')
    .description('hooks discovered from a project root and the home')
    .option('--root <dir>', 'project root (default the current directory)')
    .option('--home <dir>', 'home for user-level hooks (default yours)')
    .action(async (o: { root?: string; home?: string }) => {
      const report = await buildListReport(o.root ?? process.cwd(), { home: o.home ?? homedir() });
      if (json()) io.out(terminalSafeJson(report));
      else for (const line of formatListReport(report)) io.out(line);
      state.exit = reportExitCode(report) === 0 ? EXIT_OK : EXIT_REFUSED;
    });
  group
    .command('dry-run')
    .description('run every matching hook of one event for real and print the merged outcome')
    .requiredOption('--event <event>', 'canonical event (toolGate, beforeSubmitPrompt, stop, …)')
    .requiredOption('--payload <json>', 'payload JSON, @FILE or - for stdin')
    .option('--root <dir>', 'project root (default the current directory)')
    .option('--home <dir>', 'home for user-level hooks (default yours)')
    .option('--conversation <id>', 'conversation id (a pane key when the host runs them)')
    .option('--policy <policy>', 'vendor | strict', 'vendor')
    .action(
      async (o: {
        event: string;
        payload: string;
        root?: string;
        home?: string;
        conversation?: string;
        policy: string;
      }) => {
        const report = await asUsage(() =>
          buildDryRunReport({
            root: o.root ?? process.cwd(),
            home: o.home ?? homedir(),
            event: o.event,
            payloadText: readPayloadText(o.payload),
            policy: o.policy,
            ...(o.conversation ? { conversationId: o.conversation } : {}),
          }),
        );
        if (json()) io.out(terminalSafeJson(report));
        else for (const line of formatDryRunReport(report)) io.out(line);
        state.exit = reportExitCode(report) === 0 ? EXIT_OK : EXIT_REFUSED;
      },
    );
}
