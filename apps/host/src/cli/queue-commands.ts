import { terminalSafeJson } from '@orca/shared/printable';
import type { Command } from 'commander';
import { EXIT_OK, EXIT_REFUSED } from '../constants.ts';
import type { CliContext } from './cli-context.ts';
import { formatQueueItem } from './human-lines.ts';
import { parsePositiveInt, parseTimeout } from './parse-args.ts';
import { withClient } from './runtime-commands.ts';

/** Registers `orca queue ls|rm|mv|wait`: the panes' prompt queues (`orca dispatch --queue` adds). */
export function addQueueCommands(program: Command, { io, state, globals }: CliContext): void {
  const json = (): boolean => globals().json === true;
  const print = (value: unknown, human: string): void => io.out(json() ? terminalSafeJson(value) : human);
  const queue = program
    .command('queue')
    .description('prompts queued for panes (add one with `orca dispatch HANDLE --inject P --queue`)');

  queue
    .command('ls')
    .argument('[handle]', 'only this pane')
    .description('pending prompts in delivery order, then delivered, failed, cancelled and expired ones (newest first)')
    .action(async (handle: string | undefined) => {
      const r = await withClient(globals, (c) => c.call('queue.list', handle ? { handle } : {}));
      if (json()) io.out(terminalSafeJson(r));
      else if (r.items.length === 0) io.out(handle ? 'no queued prompts for this pane' : 'no queued prompts');
      else for (const item of r.items) io.out(formatQueueItem(item));
    });

  queue
    .command('rm')
    .argument('<id>', 'queue item id', parsePositiveInt('queue rm <id>'))
    .description('cancel a queued prompt (not one already being written)')
    .action(async (id: number) => {
      const item = await withClient(globals, (c) => c.call('queue.remove', { id }));
      print(item, formatQueueItem(item));
    });

  queue
    .command('mv')
    .argument('<id>', 'queue item id', parsePositiveInt('queue mv <id>'))
    .argument(
      '<position>',
      'its new place among the pane’s queued prompts (1 = next)',
      parsePositiveInt('queue mv <position>'),
    )
    .description('reorder: move a queued prompt to a new place in its pane’s queue')
    .action(async (id: number, position: number) => {
      const r = await withClient(globals, (c) => c.call('queue.move', { id, position }));
      if (json()) io.out(terminalSafeJson(r));
      else for (const item of r.items) io.out(formatQueueItem(item));
    });

  queue
    .command('wait')
    .argument('<id>', 'queue item id', parsePositiveInt('queue wait <id>'))
    .option('--timeout <seconds>', 'give up after this long (default 600)', parseTimeout)
    .description('block until the prompt is submitted (exit 0) or failed, cancelled or expired (exit 1)')
    .action(async (id: number, o: { timeout?: number }) => {
      const item = await withClient(globals, (c) =>
        c.stream('queue.wait', { id, ...(o.timeout ? { timeoutMs: o.timeout } : {}) }, () => {}),
      );
      print(item, formatQueueItem(item));
      state.exit = item.state === 'submitted' ? EXIT_OK : EXIT_REFUSED;
    });
}
