import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { ExplainedTransitionView } from '@orca/wire/contract';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { CliContext } from './cli-context.ts';
import { parsePositiveInt } from './parse-args.ts';
import { withClient } from './runtime-commands.ts';

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

/** Human lines of one explained transition. */
export function formatExplained(t: ExplainedTransitionView): string[] {
  const e = t.explanation;
  const lines = [
    `${clock(t.at)}  ${t.from ?? '—'} → ${t.to ?? '—'}  rule ${e.rule} (${e.authority})${e.screenShowsPrompt ? '  · prompt on screen' : ''}`,
  ];
  if (e.evidence.row) {
    const r = e.evidence.row;
    lines.push(
      `    ${r.via} row: ${r.source} ${r.state}${r.toolName ? ` (${printableField(r.toolName)})` : ''} at ${clock(r.receivedAt)}`,
    );
  }
  if (e.evidence.title)
    lines.push(
      `    title: ${printableField(e.evidence.title.text)} (${e.evidence.title.kind}${e.evidence.title.live ? ', live' : ''})`,
    );
  if (e.evidence.screen) {
    lines.push(`    screen: ${e.evidence.screen.reason} prompt at "${printableField(e.evidence.screen.anchor)}"`);
    for (const l of e.evidence.screen.lines) lines.push(`      | ${printableField(l)}`);
  }
  if (e.evidence.process) lines.push(`    process in front: ${e.evidence.process.agent ?? 'no agent'}`);
  for (const o of e.overrode) lines.push(`    overrode: ${printableField(o)}`);
  if (t.replay && 'same' in t.replay)
    lines.push(
      `    replayed: ${t.replay.verdict.status ?? '—'} (${t.replay.same ? 'same verdict' : 'DIFFERENT verdict'})`,
    );
  else if (t.replay)
    lines.push(
      '    replayed: no (its evidence was not kept: this pane kept evidence for a change less than 1 s before)',
    );
  return lines;
}

/** Registers `orca status explain` and `orca notify test|log`. */
export function addNotifyCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const status = program.commands.find((c) => c.name() === 'status') ?? program.command('status');
  status
    .command('explain')
    .argument('<handle>')
    .description("why a pane has its status: each recent transition's rule, authority, evidence and what it overrode")
    .option('--limit <n>', 'transitions to show (newest; default 10)', parsePositiveInt('--limit'))
    .option('--replay', 'evaluate each stored evidence again and say whether the verdict is the same')
    .addHelpText('after', '\nExample:\n  orca status explain pane-1a2b3c4d --replay')
    .action(async (handle: string, o: { limit?: number; replay?: boolean }) => {
      const r = await withClient(globals, (c) =>
        c.call('status.explain', {
          handle,
          ...(o.limit ? { limit: o.limit } : {}),
          ...(o.replay ? { replay: true } : {}),
        }),
      );
      if (json()) io.out(terminalSafeJson(r));
      else if (r.transitions.length === 0) io.out(`${handle}: no transitions recorded yet`);
      else for (const t of r.transitions) for (const line of formatExplained(t)) io.out(line);
      state.exit = r.transitions.some((t) => t.replay && 'same' in t.replay && !t.replay.same) ? EXIT_REFUSED : EXIT_OK;
    });

  const notify = program
    .command('notify')
    .description('"needs you" notifications (rules and sinks in DATA_DIR/notify.json)');
  notify
    .command('test')
    .description('send a test notification to every sink (or one) and say how each attempt ended')
    .option('--sink <name>', 'only this sink')
    .action(async (o: { sink?: string }) => {
      const r = await withClient(globals, (c) => c.call('notify.test', o.sink ? { sink: o.sink } : {}));
      if (json()) io.out(terminalSafeJson(r));
      else if (r.results.length === 0)
        io.out(o.sink ? `no sink named ${printableField(o.sink)}` : 'no sinks configured');
      else
        for (const x of r.results)
          io.out(`${printableField(x.sink)}: ${x.outcome}${x.error ? ` (${printableField(x.error)})` : ''}`);
      state.exit = r.results.length > 0 && r.results.every((x) => x.outcome === 'delivered') ? EXIT_OK : EXIT_REFUSED;
    });
  notify
    .command('log')
    .description('recent delivery attempts: sink, event, outcome, HTTP status, latency')
    .option('--limit <n>', 'attempts to show (newest; default 50)', parsePositiveInt('--limit'))
    .action(async (o: { limit?: number }) => {
      const r = await withClient(globals, (c) => c.call('notify.log', o.limit ? { limit: o.limit } : {}));
      if (json()) io.out(terminalSafeJson(r));
      else if (r.attempts.length === 0) io.out('no notifications sent yet');
      else
        for (const a of r.attempts)
          io.out(
            `${new Date(a.at).toISOString()}  ${printableField(a.sink)}  ${a.kind}  ${a.handle ?? '—'}  #${a.attempt} ${a.outcome}${
              a.status !== null ? ` ${a.status}` : ''
            }${a.latencyMs !== null ? ` ${a.latencyMs} ms` : ''}${a.error ? `  ${printableField(a.error)}` : ''}`,
          );
      state.exit = EXIT_OK;
    });
}
