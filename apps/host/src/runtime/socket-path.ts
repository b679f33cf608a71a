import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATA_DIR_MODE, UNIX_SOCKET_PATH_MAX_BYTES } from '../constants.ts';
import { HostError } from '../errors.ts';
import { assertOwnDirectory, currentUid } from './dir-owner.ts';

/** Where the runtime socket goes: in the data dir, or in a short per-user runtime dir. */
export interface SocketPlan {
  readonly socket: string;
  /** The per-user runtime dir holding the socket, or null when it stays in the data dir. */
  readonly runtimeDir: string | null;
}

/** Hex chars of the data dir's hash naming its socket in the runtime dir (64 bits). */
const SOCKET_NAME_HASH_CHARS = 16;

/**
 * Picks the runtime socket path for the data dir `root` without touching the disk:
 * `<root>/runtime.sock` when it fits a Unix socket address, else
 * `<$XDG_RUNTIME_DIR or /tmp>/orca-<uid>/<hash of root><suffix>` (default `.sock`). When neither fits, refuses with
 * `ORCA_HOST_DATA_DIR` naming both paths and what to do.
 */
export function planSocketPath(
  root: string,
  inDataDir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  suffix = '.sock',
): SocketPlan {
  const uid = currentUid();
  // Why: Windows uses a named pipe, which has no such limit.
  if (uid === null || Buffer.byteLength(inDataDir) <= UNIX_SOCKET_PATH_MAX_BYTES)
    return { socket: inDataDir, runtimeDir: null };
  const base = env.XDG_RUNTIME_DIR?.trim() || '/tmp';
  const runtimeDir = join(base, `orca-${uid}`);
  const name = createHash('sha256').update(resolve(root)).digest('hex').slice(0, SOCKET_NAME_HASH_CHARS);
  const socket = join(runtimeDir, `${name}${suffix}`);
  if (Buffer.byteLength(socket) > UNIX_SOCKET_PATH_MAX_BYTES) {
    throw new HostError(
      'ORCA_HOST_DATA_DIR',
      `the runtime socket path ${inDataDir} is ${Buffer.byteLength(inDataDir)} bytes, more than the ${UNIX_SOCKET_PATH_MAX_BYTES} a Unix socket address holds, and the short one ${socket} is ${Buffer.byteLength(socket)} bytes too; pass a shorter --data-dir or set XDG_RUNTIME_DIR to a short directory`,
      { context: { socket: inDataDir, fallback: socket } },
    );
  }
  return { socket, runtimeDir };
}

/**
 * Creates the per-user runtime dir (0700) if needed and checks it: a real directory (no
 * symlink) owned by us. A looser mode of our own directory is tightened.
 */
export function ensureRuntimeDir(runtimeDir: string): void {
  assertOwnDirectory(runtimeDir, 'the runtime directory', false);
  try {
    mkdirSync(runtimeDir, { mode: DATA_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new HostError(
        'ORCA_HOST_DATA_DIR',
        `cannot create the runtime directory ${runtimeDir}: ${(error as Error).message}; set XDG_RUNTIME_DIR to a writable short directory or pass a shorter --data-dir`,
        { cause: error, context: { dir: runtimeDir } },
      );
  }
  // Why: checked again after mkdir: another user may have created it (or a symlink) in between.
  assertOwnDirectory(runtimeDir, 'the runtime directory', false);
  chmodSync(runtimeDir, DATA_DIR_MODE);
}
