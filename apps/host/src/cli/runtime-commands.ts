import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { RuntimeClient } from '../rpc/client.ts';
import { runAttach } from './attach.ts';
import type { CliContext, GlobalOptions } from './cli-context.ts';
import {
  formatDispatchReceipt,
  formatGcReport,
  formatGuestAdded,
  formatGuestRemoved,
  formatGuestRow,
  formatPaneRow,
  formatPaneShow,
  formatStatusChange,
  formatWaitResult,
} from './human-lines.ts';
import { UsageError } from './output.ts';
import { parseDuration, parseTimeout } from './parse-args.ts';
import { connectFromGlobals } from './runtime-connection.ts';

type Globals = () => GlobalOptions;

/** Runs `fn` with a client of the running host, closed afterwards. */
export async function withClient<T>(globals: Globals, fn: (client: RuntimeClient) => Promise<T>): Promise<T> {
  const client = await connectFromGlobals(globals());
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

const AGENTS_HELP = 'agents whose hooks to install, comma-separated (default: the agents found in the guest home)';

function parseAgentList(value: string): string[] {
  const agents = value
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
  if (agents.length === 0) throw new UsageError('--agents expects a comma-separated list, e.g. claude,codex');
  return agents;
}

/** Registers the commands that talk to a running host over its runtime socket. */
export function addRuntimeCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const print = (value: unknown, human: string): void => io.out(json() ? terminalSafeJson(value) : human);

  program
    .command('run')
    .description('create a pane running CMD; prints its handle')
    .option('--name <name>', 'pane name')
    .option('--cwd <dir>', 'working directory (default the current one)')
    .option('--guest <name>', 'run inside a guest')
    .option('--attach', 'attach to the new pane at once (as `orca attach`; Ctrl-] detaches, the pane keeps running)')
    .option('--allow-clipboard', 'with --attach: let the pane set the clipboard (OSC 52)')
    .argument('<cmd...>', 'command and arguments (after --)')
    .action(
      async (
        cmd: string[],
        o: { name?: string; cwd?: string; guest?: string; attach?: boolean; allowClipboard?: boolean },
      ) => {
        // Why: an empty program name is not "no program": node-pty would quietly start a shell.
        if (cmd[0] === '') throw new UsageError('orca run: the command is empty; give a program after --');
        if (o.allowClipboard && !o.attach) throw new UsageError('orca run: --allow-clipboard needs --attach');
        await withClient(globals, async (c) => {
          const view = await c.call('terminal.create', {
            argv: cmd,
            cwd: o.cwd ?? process.cwd(),
            ...(o.name ? { name: o.name } : {}),
            ...(o.guest ? { guest: o.guest } : {}),
          });
          state.exit = EXIT_OK;
          // Why: with --attach the terminal belongs to the pane; the handle goes to stderr so it is not lost.
          if (!o.attach) return print(view, view.handle);
          io.err(`orca: attached to ${view.handle} (Ctrl-] detaches)`);
          state.exit = await runAttach(c, view.handle, io, { allowClipboard: o.allowClipboard === true });
        });
      },
    );

  const list = async (): Promise<void> => {
    const { panes } = await withClient(globals, (c) => c.call('terminal.list'));
    if (json()) io.out(terminalSafeJson({ panes }));
    else for (const p of panes) io.out(formatPaneRow(p));
  };
  program.command('ls').description('list panes').action(list);
  program
    .command('status')
    .description('panes with title, status, agentWait, cwd, guest')
    .option('--watch', 'keep printing verdict changes')
    .action(async (o: { watch?: boolean }) => {
      await list();
      if (!o.watch) return;
      await withClient(globals, async (c) => {
        // Why: stopping a watch is its normal end; Ctrl-C or SIGTERM closes the stream and exits 0.
        let stopped = false;
        const stop = (): void => {
          stopped = true;
          c.close();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          await c.stream('status.watch', undefined, (change) => print(change, formatStatusChange(change)));
        } catch (error) {
          if (!stopped) throw error;
        } finally {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
        }
        state.exit = EXIT_OK;
      });
    });

  const terminal = program.command('terminal').description('one pane');
  terminal
    .command('show')
    .argument('<handle>')
    .action(async (handle: string) => {
      const view = await withClient(globals, (c) => c.call('terminal.show', { handle }));
      print(view, formatPaneShow(view));
    });
  terminal
    .command('send')
    .argument('<handle>')
    .argument('<text>')
    .description('write raw input to the pane')
    .action(async (handle: string, text: string) => {
      const r = await withClient(globals, (c) => c.call('terminal.send', { handle, text }));
      print(r, `sent ${r.bytes} bytes`);
    });
  terminal
    .command('wait')
    .argument('<handle>')
    .requiredOption('--for <condition>', 'tui-idle | exit')
    .option('--timeout <seconds>', 'give up after this long', parseTimeout)
    .action(async (handle: string, o: { for: string; timeout?: number }) => {
      const mode = o.for;
      if (mode !== 'tui-idle' && mode !== 'exit')
        throw new UsageError(`--for expects tui-idle or exit, got ${printableField(mode)}`);
      const r = await withClient(globals, (c) =>
        c.stream('terminal.wait', { handle, for: mode, ...(o.timeout ? { timeoutMs: o.timeout } : {}) }, () => {}),
      );
      print(r, formatWaitResult(r));
      state.exit = r.satisfied ? EXIT_OK : EXIT_REFUSED;
    });

  const guest = program.command('guest').description('guests: network namespaces and SSH hosts');
  const add = guest.command('add').description('add a guest and install managed hooks into its home');
  add
    .command('netns')
    .argument('<name>')
    .option('--no-hooks', 'do not install managed hooks into the guest home')
    .option('--agents <list>', AGENTS_HELP, parseAgentList)
    .action(async (name: string, o: { hooks: boolean; agents?: string[] }) => {
      const g = await withClient(globals, (c) =>
        c.call('guest.add', {
          kind: 'netns',
          name,
          noHooks: !o.hooks,
          ...(o.agents ? { agents: o.agents } : {}),
        }),
      );
      print(g, formatGuestAdded(g));
    });
  add
    .command('ssh')
    .argument('<name>')
    .requiredOption('--target <user@host[:port]>', 'ssh destination')
    .option('--no-hooks', 'do not install managed hooks into the guest home')
    .option('--ssh-arg <arg...>', 'extra ssh arguments of this guest only (-i key, -p 2222, -o …)')
    .option('--agents <list>', AGENTS_HELP, parseAgentList)
    .action(async (name: string, o: { target: string; hooks: boolean; sshArg?: string[]; agents?: string[] }) => {
      const g = await withClient(globals, (c) =>
        c.call('guest.add', {
          kind: 'ssh',
          name,
          target: o.target,
          noHooks: !o.hooks,
          ...(o.agents ? { agents: o.agents } : {}),
          ...(o.sshArg ? { sshArgs: o.sshArg } : {}),
        }),
      );
      print(g, formatGuestAdded(g));
    });
  guest
    .command('ls')
    .description('list guests')
    .action(async () => {
      const r = await withClient(globals, (c) => c.call('guest.list'));
      if (json()) io.out(terminalSafeJson(r));
      else for (const g of r.guests) io.out(formatGuestRow(g));
    });
  guest
    .command('rm')
    .argument('<name>')
    .action(async (name: string) => {
      const r = await withClient(globals, (c) => c.call('guest.remove', { name }));
      print(r, formatGuestRemoved(name, r.removed));
      state.exit = r.removed ? EXIT_OK : EXIT_REFUSED;
    });

  program
    .command('attach')
    .argument('<handle>')
    .description('interactive attach (raw mode, resize); Ctrl-] detaches')
    .option('--allow-clipboard', "let the pane set this terminal's clipboard (OSC 52); stripped by default")
    .action(async (handle: string, o: { allowClipboard?: boolean }) => {
      await withClient(globals, async (c) => {
        await c.call('terminal.show', { handle });
        state.exit = await runAttach(c, handle, io, { allowClipboard: o.allowClipboard === true });
      });
    });

  program
    .command('dispatch')
    .argument('<handle>')
    .requiredOption('--inject <prompt>', 'prompt to inject (guarded: refused with zero bytes written)')
    .option('--timeout <seconds>', 'longest wait for the agent to be ready and take the prompt', parseTimeout)
    .option(
      '--queue',
      'queue the prompt and print its id at once; it is delivered when the agent is ready (see `orca queue`)',
    )
    .option(
      '--expires <duration>',
      'with --queue: drop the prompt if not delivered within this long (90s, 10m, 2h)',
      (v) => parseDuration(v, '--expires'),
    )
    .action(async (handle: string, o: { inject: string; timeout?: number; queue?: boolean; expires?: number }) => {
      if (o.expires !== undefined && !o.queue) throw new UsageError('orca dispatch: --expires needs --queue');
      if (o.queue && o.timeout !== undefined)
        throw new UsageError(
          'orca dispatch: --timeout is for a direct dispatch; wait on a queued one with `orca queue wait ID --timeout S`',
        );
      if (o.queue) {
        const item = await withClient(globals, (c) =>
          c.call('queue.add', {
            handle,
            prompt: o.inject,
            source: 'cli',
            ...(o.expires !== undefined ? { expiresInMs: o.expires } : {}),
          }),
        );
        print(item, `queued ${item.id} (#${item.position ?? '?'} for ${printableField(item.handle)})`);
        return;
      }
      const r = await withClient(globals, (c) =>
        c.call('terminal.dispatch', {
          handle,
          inject: o.inject,
          ...(o.timeout !== undefined ? { timeoutMs: o.timeout } : {}),
        }),
      );
      print(r, formatDispatchReceipt(r));
    });

  program
    .command('gc')
    .description('compact the store now: drop expired, orphaned and over-cap hook rows (also runs at start and hourly)')
    .option('--full', 'rewrite the whole database file (VACUUM) instead of returning free pages')
    .action(async (o: { full?: boolean }) => {
      const r = await withClient(globals, (c) => c.call('store.gc', { full: o.full === true }));
      print(r, formatGcReport(r));
    });
}
