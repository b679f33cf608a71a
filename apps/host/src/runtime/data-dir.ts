import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DATA_DIR_MODE } from '../constants.ts';
import { HostError } from '../errors.ts';
import { assertOwnDirectory } from './dir-owner.ts';
import { ensureRuntimeDir, planSocketPath } from './socket-path.ts';

/** Every path the host uses inside its data directory. */
export interface DataPaths {
  readonly root: string;
  readonly agentHooksDir: string;
  readonly endpointEnv: string;
  readonly endpointCmd: string;
  readonly spoolDir: string;
  readonly runtimeJson: string;
  readonly socket: string;
  readonly store: string;
  readonly logsDir: string;
  readonly logFile: string;
  /** The PTY keeper's state dir (`keeper.json`) and its socket (may move to the runtime dir). */
  readonly keeperDir: string;
  readonly keeperSocket: string;
  readonly keeperLog: string;
  /** Notification rules and sinks (`notify.json`, JSON with comments; absent: tell open boards). */
  readonly notifyConfig: string;
}

/** Inputs of {@link resolveDataDir}; all optional so tests can pin each one. */
export interface DataDirInputs {
  readonly flag?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
}

/**
 * Picks the data directory: `--data-dir`, else `$ORCA_DATA_DIR`, else `$XDG_DATA_HOME/orca`
 * (`~/.local/share/orca`; macOS `~/Library/Application Support/orca`).
 *
 * @example
 * resolveDataDir({ flag: undefined, env: { XDG_DATA_HOME: '/x' } }) // '/x/orca'
 */
export function resolveDataDir(inputs: DataDirInputs = {}): string {
  const env = inputs.env ?? process.env;
  const flag = inputs.flag?.trim();
  if (flag) return flag;
  const fromEnv = env.ORCA_DATA_DIR?.trim();
  if (fromEnv) return fromEnv;
  const home = inputs.home ?? homedir();
  const platform = inputs.platform ?? process.platform;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'orca');
  const xdg = env.XDG_DATA_HOME?.trim();
  return join(xdg ? xdg : join(home, '.local', 'share'), 'orca');
}

/** The layout of `spec/host.md` under `root` (pure; creates nothing). */
export function dataPaths(root: string): DataPaths {
  const agentHooksDir = join(root, 'agent-hooks');
  const logsDir = join(root, 'logs');
  return {
    root,
    agentHooksDir,
    endpointEnv: join(agentHooksDir, 'endpoint.env'),
    endpointCmd: join(agentHooksDir, 'endpoint.cmd'),
    spoolDir: join(agentHooksDir, 'spool'),
    runtimeJson: join(root, 'runtime.json'),
    socket: join(root, 'runtime.sock'),
    store: join(root, 'orca.sqlite'),
    logsDir,
    logFile: join(logsDir, 'host.log'),
    keeperDir: join(root, 'keeper'),
    keeperSocket: join(root, 'keeper', 'keeper.sock'),
    keeperLog: join(logsDir, 'keeper.log'),
    notifyConfig: join(root, 'notify.json'),
  };
}

/**
 * Creates the data directory and its sub-directories with mode 0700 (tightening looser
 * pre-existing ones) and returns the layout. Refused up front, with nothing created or changed:
 * a data dir (or sub-directory) owned by another user, and a socket path too long for a Unix
 * socket when no short runtime dir fits either. A too-long `runtime.sock` moves to
 * `<$XDG_RUNTIME_DIR or /tmp>/orca-<uid>/` (0700, ours), and `socket` says where.
 */
export function ensureDataDir(
  root: string,
  opts: { env?: Readonly<Record<string, string | undefined>> } = {},
): DataPaths {
  const inDataDir = dataPaths(root);
  const plan = planSocketPath(root, inDataDir.socket, opts.env ?? process.env);
  const keeperPlan = planSocketPath(root, inDataDir.keeperSocket, opts.env ?? process.env, '.keeper.sock');
  const paths: DataPaths = { ...inDataDir, socket: plan.socket, keeperSocket: keeperPlan.socket };
  assertOwnDirectory(paths.root, 'the data directory', true);
  for (const dir of [paths.agentHooksDir, paths.spoolDir, paths.logsDir, paths.keeperDir]) {
    assertOwnDirectory(dir, 'the directory', false);
  }
  try {
    for (const dir of [paths.root, paths.agentHooksDir, paths.spoolDir, paths.logsDir, paths.keeperDir]) {
      mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
      // Why: mkdir keeps the mode of a directory that already existed, possibly world-readable.
      if (process.platform !== 'win32') chmodSync(dir, DATA_DIR_MODE);
    }
  } catch (cause) {
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `cannot create the data directory ${root}: ${(cause as Error).message}; pass --data-dir to use another`,
      { cause, context: { root } },
    );
  }
  if (plan.runtimeDir !== null) ensureRuntimeDir(plan.runtimeDir);
  if (keeperPlan.runtimeDir !== null) ensureRuntimeDir(keeperPlan.runtimeDir);
  return paths;
}
