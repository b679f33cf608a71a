#!/usr/bin/env node
// `orca-keeper --state-dir DIR --socket PATH`: the long-lived holder of an orca data dir's PTYs.
// A host (`orca start`) starts it detached and finds it again through DIR/keeper.json.
import { parseArgs } from 'node:util';
import { KEEPER_VERSION } from './constants.ts';
import { KeeperError } from './errors.ts';
import { startKeeper } from './keeper-server.ts';

const USAGE = 'usage: orca-keeper --state-dir DIR --socket PATH [--idle-exit-ms N] | --version';

async function main(): Promise<number> {
  let values: { 'state-dir'?: string; socket?: string; 'idle-exit-ms'?: string; version?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        'state-dir': { type: 'string' },
        socket: { type: 'string' },
        'idle-exit-ms': { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`orca-keeper: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.version) {
    process.stdout.write(`${KEEPER_VERSION}\n`);
    return 0;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const idle = values['idle-exit-ms'] === undefined ? undefined : Number(values['idle-exit-ms']);
  if (!values['state-dir'] || !values.socket || (idle !== undefined && !(Number.isInteger(idle) && idle >= 0))) {
    process.stderr.write(`orca-keeper: ORCA_KEEPER_USAGE: --state-dir and --socket are required\n${USAGE}\n`);
    return 2;
  }
  const log = (line: string): void => {
    process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  };
  try {
    let done: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolve) => {
      done = resolve;
    });
    const keeper = await startKeeper({
      stateDir: values['state-dir'],
      socket: values.socket,
      ...(idle !== undefined ? { idleExitMs: idle } : {}),
      log,
      onClosed: () => done(0),
    });
    // Why: detached from any terminal; a hangup is not a request to stop. SIGTERM/SIGINT stop
    // the keeper and its panes (they could not outlive it anyway: their PTYs close with it).
    process.on('SIGHUP', () => log('SIGHUP ignored'));
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => void keeper.close({ killPanes: true, why: signal }));
    }
    return await finished;
  } catch (error) {
    const code = error instanceof KeeperError ? error.code : 'ORCA_KEEPER_STATE_DIR';
    process.stderr.write(`orca-keeper: ${code}: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
