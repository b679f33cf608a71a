import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import {
  type AsyncOutcomeEvent,
  type BlockingEvent,
  type CanonicalEvent,
  createCommandHookRunner,
  discoverHooks,
  EVENT_PAYLOAD_SCHEMAS,
  EVENT_TRAITS,
  type EventPayloads,
  type HookRecord,
  isCanonicalEvent,
} from '@orca/command-hooks';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { CliContext } from './cli-context.ts';
import { formatCommandHookListing, formatCommandHookRun } from './human-lines.ts';
import { UsageError } from './output.ts';
import { printableField, terminalSafeJson } from './printable.ts';

function readPayload(spec: string): unknown {
  let text = spec;
  if (spec === '-') text = readFileSync(0, 'utf8');
  else if (spec.startsWith('@')) text = readFileSync(spec.slice(1), 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('--payload is not valid JSON');
  }
}

/** `orca command-hooks list|dry-run`: `@orca/command-hooks`' discovery listing and dry-run tester. */
export function addCommandHooksCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const group = program.command('command-hooks').description("the user's own Claude/Cursor/Orca command hooks");
  group
    .command('list')
    .description('hooks discovered from a project root and the home')
    .option('--root <dir>', 'project root (default the current directory)')
    .option('--home <dir>', 'home for user-level hooks (default yours)')
    .action(async (o: { root?: string; home?: string }) => {
      const found = await discoverHooks(o.root ?? process.cwd(), { home: o.home ?? homedir() });
      if (json()) io.out(terminalSafeJson(found));
      else for (const line of formatCommandHookListing(found)) io.out(line);
      state.exit = found.errors.length > 0 ? EXIT_REFUSED : EXIT_OK;
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
        if (!isCanonicalEvent(o.event)) throw new UsageError(`unknown event ${printableField(o.event)}`);
        if (o.policy !== 'vendor' && o.policy !== 'strict')
          throw new UsageError(`--policy expects vendor or strict, got ${printableField(o.policy)}`);
        const event: CanonicalEvent = o.event;
        const parsed = EVENT_PAYLOAD_SCHEMAS[event].safeParse(readPayload(o.payload));
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new UsageError(`--payload ${issue ? `/${issue.path.join('/')}: ${issue.message}` : 'is invalid'}`);
        }
        const found = await discoverHooks(o.root ?? process.cwd(), { home: o.home ?? homedir() });
        const records: HookRecord[] = [];
        const asyncOutcomes: AsyncOutcomeEvent[] = [];
        const runner = createCommandHookRunner({
          hooks: found.hooks,
          failurePolicy: o.policy,
          record: (r) => records.push(r),
          onAsyncOutcome: (e) => asyncOutcomes.push(e),
        });
        const ctx = o.conversation ? { conversationId: o.conversation } : {};
        let outcome: unknown = null;
        if (EVENT_TRAITS[event].dispatch === 'blocking') {
          outcome = await runner.emit(event as BlockingEvent, parsed.data as EventPayloads[BlockingEvent], ctx);
        } else {
          runner.emitDetached(event, parsed.data as EventPayloads[typeof event], ctx);
          await runner.whenIdle();
        }
        const report = { event, outcome, asyncOutcomes, records, warnings: found.warnings, errors: found.errors };
        if (json()) {
          io.out(terminalSafeJson(report));
        } else {
          for (const r of records) if (r.kind === 'run') io.out(formatCommandHookRun(r));
          io.out(`outcome: ${terminalSafeJson(outcome)}`);
        }
        state.exit = found.errors.length > 0 ? EXIT_REFUSED : EXIT_OK;
      },
    );
}
