import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { ResumeCandidateView as ResumeCandidate, ResumeReportView as ResumeReport } from '@orca/wire/contract';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { CliContext } from './cli-context.ts';
import { withClient } from './runtime-commands.ts';

const p = printableField;

/** One `orca resume ls` line: the pane, its agent and session, then the command or why not. */
export function formatResumeCandidate(c: ResumeCandidate): string {
  const who = `${p(c.handle)}${c.name ? ` (${p(c.name)})` : ''}  ${p(c.agent ?? '-')}  ${p(c.cause)}  ${p(c.cwd)}`;
  return 'argv' in c.plan
    ? `${who}  resumable: ${c.plan.argv.map((a) => p(a)).join(' ')}`
    : `${who}  not resumable: ${p(c.plan.reason)}`;
}

/** The lines `orca resume run` prints. */
export function formatResumeReport(r: ResumeReport): string[] {
  return [
    ...r.resumed.map((x) => `resumed ${p(x.from)} as ${p(x.to.handle)}: ${x.argv.map((a) => p(a)).join(' ')}`),
    ...r.skipped.map((x) => `skipped ${p(x.handle)}: ${p(x.reason)}`),
  ];
}

/** Registers `orca resume ls|run`: agent sessions that ended with their PTY keeper or host. */
export function addResumeCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const resume = program
    .command('resume')
    .description(
      'agent sessions that ended with their PTY keeper or host (reboot, orca stop --all): list and start again',
    );
  resume
    .command('ls')
    .description('panes whose agent session can be resumed, with the command, or why not')
    .action(async () => {
      const r = await withClient(globals, (c) => c.call('resume.list'));
      if (json()) io.out(terminalSafeJson(r));
      else if (r.panes.length === 0) io.out('nothing to resume');
      else for (const c of r.panes) io.out(formatResumeCandidate(c));
    });
  resume
    .command('run')
    .argument('[handles...]', 'the panes to resume (default: every resumable one)')
    .description("start each agent again in its pane's cwd with its own resume command and original flags")
    .action(async (handles: string[]) => {
      const r = await withClient(globals, (c) => c.call('resume.run', handles.length > 0 ? { handles } : {}));
      if (json()) io.out(terminalSafeJson(r));
      else for (const line of formatResumeReport(r)) io.out(line);
      if (r.resumed.length === 0 && r.skipped.length === 0) io.out('nothing to resume');
      state.exit = r.skipped.length > 0 && handles.length > 0 ? EXIT_REFUSED : EXIT_OK;
    });
}
