import { join } from 'node:path';
import { connectKeeper, type KeeperInfo, keeperAlive, pidAlive, readKeeperInfo } from '@orca/keeper';
import { printableField, terminalSafeJson } from '@orca/shared/printable';
import type { Command } from 'commander';
import { APP_VERSION, EXIT_OK, KEEPER_STOP_GRACE_MS, STOP_WAIT_MS } from '../constants.ts';
import { HostError } from '../errors.ts';
import { dataPaths, resolveDataDir } from '../runtime/data-dir.ts';
import { readRuntimeInfo } from '../runtime/runtime-file.ts';
import type { CliContext } from './cli-context.ts';
import { withClient } from './runtime-commands.ts';

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

async function gone(pid: number, what: string): Promise<void> {
  if (!(await goneWithin(pid, STOP_WAIT_MS))) {
    throw new HostError('ORCA_HOST_NOT_RUNNING', `${what} (pid ${pid}) did not stop within ${STOP_WAIT_MS / 1000} s`);
  }
}

/**
 * Asks the keeper to end its panes and exit; one that will not speak to this version (another
 * protocol, another host attached, no answer) gets SIGTERM, which ends its panes and it the same way.
 */
async function stopKeeper(keeper: KeeperInfo): Promise<'asked' | 'signalled'> {
  try {
    const link = await connectKeeper(keeper.socket, { pid: process.pid, version: APP_VERSION });
    try {
      await link.stopKeeper();
    } finally {
      link.close();
    }
    return 'asked';
  } catch {
    // Why: checked again (the connect may take seconds; the keeper may have left, its pid reused).
    if (keeperAlive(keeper)) {
      try {
        process.kill(keeper.pid, 'SIGTERM');
      } catch {
        // it ended meanwhile
      }
    }
    return 'signalled';
  }
}

/**
 * `orca stop [--all]`: stops the host of the data dir (its agents keep running in the PTY keeper,
 * for the next `orca start`); `--all` ends the keeper and every agent too (a running host first).
 */
export function addStopCommand(program: Command, { io, state, globals }: CliContext): void {
  program
    .command('stop')
    .description('stop the host (agents keep running in the PTY keeper); --all ends the keeper and every agent too')
    .option('--all', 'also end the PTY keeper and every pane it holds')
    .action(async (o: { all?: boolean }) => {
      const paths = dataPaths(resolveDataDir({ flag: globals().dataDir }));
      const host = readRuntimeInfo(paths.runtimeJson);
      const keeper = readKeeperInfo(join(paths.keeperDir, 'keeper.json'));
      const keeperRuns = keeper !== null && keeperAlive(keeper);
      const done: { host?: number; keeper?: number } = {};
      if (host && host.keeper !== true && pidAlive(host.pid)) {
        await withClient(globals, (c) => c.call('host.shutdown', { panes: o.all ? 'end' : 'keep' }));
        await gone(host.pid, 'the host');
        done.host = host.pid;
      }
      if (o.all && keeper && keeperRuns) {
        // Why: a host asked to end its panes stops the keeper itself; without a host we ask it.
        if (keeperAlive(keeper) && done.host === undefined) await stopKeeper(keeper);
        // Why: a host that could not reach its keeper (its link was being attached again) leaves it.
        else if (
          done.host !== undefined &&
          !(await goneWithin(keeper.pid, KEEPER_STOP_GRACE_MS)) &&
          keeperAlive(keeper)
        )
          await stopKeeper(keeper);
        await gone(keeper.pid, 'the PTY keeper');
        done.keeper = keeper.pid;
      }
      if (done.host === undefined && done.keeper === undefined) {
        throw new HostError(
          'ORCA_HOST_NOT_RUNNING',
          `no host${o.all ? ' or PTY keeper' : ''} is running on ${paths.root}`,
        );
      }
      const stillKept = !o.all && keeper && keeperAlive(keeper) ? keeper.pid : null;
      const human = [
        done.host !== undefined ? `stopped the host (pid ${done.host})` : 'no host was running',
        done.keeper !== undefined ? `ended the PTY keeper (pid ${done.keeper}) and its panes` : '',
        stillKept !== null ? `agents keep running in orca-keeper pid ${stillKept}; \`orca start\` takes them over` : '',
      ]
        .filter(Boolean)
        .join('; ');
      io.out(globals().json ? terminalSafeJson({ stopped: done, keeperRunning: stillKept }) : printableField(human));
      state.exit = EXIT_OK;
    });
}
