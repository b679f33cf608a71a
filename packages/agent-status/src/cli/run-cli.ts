import { readFile } from 'node:fs/promises';
import { printableField, terminalSafeJson } from '@orca/shared/printable';
import { Command, CommanderError, Option } from 'commander';
import { AgentStatusError } from '../errors.ts';
import { classifyTitle } from '../title/classify-title.ts';
import { evaluateAll } from './evaluate-all.ts';
import { type ClassifyFlags, evidenceFromFlags, parseMs, parseRowsJson } from './evidence-from-flags.ts';
import { titleLine, verdictJson, verdictLine } from './format.ts';
import { PACKAGE_VERSION } from './package-version.ts';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

/** Node's own streams and files. */
export const nodeIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readFile: (p) => readFile(p, 'utf8'),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  },
};

interface RawClassify {
  tail: string;
  screen?: string;
  title?: string;
  titleLive?: boolean;
  titleRestored?: boolean;
  titleAt?: string;
  rows?: string;
  fg?: string;
  fgConfirm?: string;
  waitBlockedAt?: string;
  now?: string;
  exited?: boolean;
  lastOutputAt?: string;
  acceptedPrompt?: boolean;
  all?: boolean;
  json?: boolean;
}

async function classify(raw: RawClassify, io: CliIo): Promise<void> {
  const read = (path: string) => (path === '-' ? io.readStdin() : io.readFile(path));
  const flags: ClassifyFlags = { tail: await readInput('--tail', raw.tail, read) };
  if (raw.screen !== undefined) flags.screen = await readInput('--screen', raw.screen, read);
  if (raw.title !== undefined) flags.title = raw.title;
  if (raw.titleLive) flags.titleLive = true;
  if (raw.titleRestored) flags.titleRestored = true;
  if (raw.titleAt !== undefined) flags.titleAt = parseMs('--title-at', raw.titleAt);
  if (raw.rows !== undefined) flags.rows = parseRowsJson(await readInput('--rows', raw.rows, read));
  if (raw.fg !== undefined) flags.fg = raw.fg;
  if (raw.fgConfirm !== undefined) flags.fgConfirm = raw.fgConfirm;
  if (raw.waitBlockedAt !== undefined) flags.waitBlockedAt = parseMs('--wait-blocked-at', raw.waitBlockedAt);
  if (raw.now !== undefined) flags.now = parseMs('--now', raw.now);
  if (raw.exited) flags.exited = true;
  if (raw.lastOutputAt !== undefined) flags.lastOutputAt = parseMs('--last-output-at', raw.lastOutputAt);
  if (raw.acceptedPrompt) flags.acceptedPrompt = true;

  const evidence = evidenceFromFlags(flags);
  const { verdict, tuiIdle, guard } = await evaluateAll(evidence, flags);
  const extra: Parameters<typeof verdictJson>[1] = raw.all ? { tuiIdle, guard } : undefined;
  io.stdout(`${raw.json ? verdictJson(verdict, extra) : verdictLine(verdict, extra)}\n`);
}

async function readInput(flag: string, path: string, read: (p: string) => Promise<string>): Promise<string> {
  try {
    return await read(path);
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    throw new AgentStatusError(
      'ORCA_STATUS_USAGE',
      `${flag}: cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}`,
      {
        cause,
      },
    );
  }
}

/**
 * Run `orca-status` with `argv` (without node and script). Resolves to the exit code: 0, or 2 on a
 * usage/input error (one stderr line, no stack).
 *
 * @example
 * await runCli(['title', '✳ Claude Code', '--json'], nodeIo); // prints {"status":"idle",…}
 */
export async function runCli(argv: readonly string[], io: CliIo = nodeIo): Promise<number> {
  const program = new Command('orca-status')
    .description('Fuse hooks, titles, OSC 9999 and the screen into one agent verdict.')
    .version(PACKAGE_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.stdout(t), writeErr: () => {} });

  program
    .command('classify')
    .description('classify one pane from evidence files and flags')
    .requiredOption('--tail <file>', 'retained tail (ANSI allowed), - for stdin')
    .option('--screen <file>', 'rendered viewport rows, top to bottom')
    .option('--title <text>', 'pane title')
    .option('--title-live', 'title set by the current process')
    .option('--title-restored', 'title carried over from a previous run')
    .option('--title-at <ms>', 'title arrival')
    .option('--rows <file>', 'JSON array of status rows')
    .option('--fg <cmd>', 'foreground argv (cheap read); absent = unreadable')
    .option('--fg-confirm <cmd>', 'confirmer answer; absent = no confirmer')
    .option('--wait-blocked-at <ms>', 'wait stamp')
    .option('--now <ms>', 'evaluation time (default: largest time given)')
    .option('--exited', 'the PTY exited')
    .option('--last-output-at <ms>', 'last PTY output (tui-idle)')
    .option('--accepted-prompt', 'a prompt was accepted this generation (tui-idle)')
    .option('--all', 'add tuiIdle and the inject-mode guard')
    .addOption(new Option('--json', 'print JSON'))
    .action(async (opts: RawClassify) => classify(opts, io));

  program
    .command('title')
    .description('classify a terminal title')
    .argument('<title>', 'the title text')
    .option('--json', 'print JSON')
    .action((text: string, opts: { json?: boolean }) => {
      const c = classifyTitle(text);
      io.stdout(`${opts.json ? terminalSafeJson({ status: c.status, agent: c.agent, kind: c.kind }) : titleLine(c)}\n`);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) {
        return 0;
      }
      io.stderr(`orca-status: ${oneLine(error.message.replace(/^error: /, ''))}\n`);
      return 2;
    }
    if (error instanceof AgentStatusError) {
      io.stderr(`orca-status: ${oneLine(error.message)}\n`);
      return 2;
    }
    io.stderr(`orca-status: ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
    return 2;
  }
}

/** The first line of an error message, cut to 300 characters, control characters escaped (it quotes input). */
export function oneLine(text: string): string {
  return printableField(text.split('\n')[0]?.slice(0, 300) ?? '');
}
