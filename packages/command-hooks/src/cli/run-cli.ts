import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { Command, CommanderError, Option } from 'commander';
import { discoverHooks } from '../discover.ts';
import { EVENT_PAYLOAD_SCHEMAS, EVENT_TRAITS, isCanonicalEvent } from '../events.ts';
import { PACKAGE_VERSION } from '../internal/version.ts';
import { formatZodIssues } from '../internal/zod-issues.ts';
import type { MergedOutcome } from '../outcome.ts';
import type { HookRecord } from '../records.ts';
import { type AsyncOutcomeEvent, createCommandHookRunner, type FailurePolicy } from '../runner.ts';
import { describeFailure, describeHook, describeIssue, describeJsonLine, describeRecord } from './human-lines.ts';
import { printableBlock, terminalSafeJson } from './printable.ts';

/** Where the CLI reads and writes (injectable for tests). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Exit codes of `orca-command-hooks`. */
export const CLI_EXIT = { ok: 0, configErrors: 1, usage: 2 } as const;

class UsageError extends Error {}

async function readPayloadText(spec: string, io: CliIo): Promise<string> {
  if (spec === '-') return io.readStdin();
  if (spec.startsWith('@')) {
    try {
      return await readFile(spec.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(
        `--payload: cannot read ${spec.slice(1)}: ${error instanceof Error ? error.message : String(error)}`,
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
      const found = await discoverHooks(o.root, { home: o.home ?? os.homedir() });
      const hooks = found.hooks.map((h) => ({
        id: h.id,
        dialect: h.dialect,
        event: h.event,
        wireEvent: h.wireEvent,
        command: h.command,
        source: h.source ?? '',
        timeoutMs: h.timeoutMs,
      }));
      if (o.json) io.stdout(`${terminalSafeJson({ hooks, warnings: found.warnings, errors: found.errors }, 2)}\n`);
      else {
        for (const h of hooks) io.stdout(`${describeHook(h)}\n`);
        for (const w of found.warnings) io.stdout(`${describeIssue('warning', w, false)}\n`);
        for (const e of found.errors) io.stdout(`${describeIssue('error', e, true)}\n`);
      }
      if (found.errors.length > 0) exitCode = CLI_EXIT.configErrors;
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
        policy: FailurePolicy;
        json?: boolean;
      }) => {
        const event = o.event;
        if (!isCanonicalEvent(event))
          throw new UsageError(`--event: expected a canonical event, got ${JSON.stringify(event)}`);
        const text = await readPayloadText(o.payload, io);
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw new UsageError(`--payload: invalid JSON: ${text.slice(0, 200)}`);
        }
        const parsed = EVENT_PAYLOAD_SCHEMAS[event].safeParse(raw);
        if (!parsed.success) {
          const first = formatZodIssues(parsed.error, raw, '')[0];
          throw new UsageError(`invalid ${event} payload ${first?.message ?? ''}`.trim());
        }
        const found = await discoverHooks(o.root, { home: o.home ?? os.homedir() });
        const records: HookRecord[] = [];
        const asyncOutcomes: AsyncOutcomeEvent[] = [];
        const runner = createCommandHookRunner({
          hooks: found.hooks,
          failurePolicy: o.policy,
          record: (r) => records.push(r),
          onAsyncOutcome: (a) => asyncOutcomes.push(a),
          ...(io.env ? { baseEnv: io.env } : {}),
        });
        const ctx = o.conversation === undefined ? {} : { conversationId: o.conversation };
        let outcome: MergedOutcome | null = null;
        const payload = parsed.data;
        if (EVENT_TRAITS[event].dispatch === 'blocking') {
          // Why: the schema table is keyed by the same event, so the payload matches it.
          outcome = await runner.emit(event as 'toolGate', payload as never, ctx);
        } else {
          runner.emitDetached(event, payload as never, ctx);
        }
        await runner.whenIdle();
        const result = { event, outcome, asyncOutcomes, records, warnings: found.warnings, errors: found.errors };
        if (o.json) io.stdout(`${terminalSafeJson(result, 2)}\n`);
        else {
          for (const r of records) io.stdout(`${describeRecord(r)}\n`);
          io.stdout(`${describeJsonLine('outcome', outcome)}\n`);
          for (const a of asyncOutcomes) io.stdout(`${describeJsonLine(`async ${a.hookId}`, a.outcome)}\n`);
          for (const w of found.warnings) io.stdout(`${describeIssue('warning', w, false)}\n`);
          for (const e of found.errors) io.stdout(`${describeIssue('error', e, false)}\n`);
        }
        if (found.errors.length > 0) exitCode = CLI_EXIT.configErrors;
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
    if (error instanceof UsageError) {
      io.stderr(`${describeFailure(error.message)}\n`);
      return CLI_EXIT.usage;
    }
    io.stderr(`${describeFailure(error instanceof Error ? error.message : String(error))}\n`);
    return CLI_EXIT.usage;
  }
  return exitCode;
}
