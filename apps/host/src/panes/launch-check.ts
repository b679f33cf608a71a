import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { HostError } from '../errors.ts';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks, before a local pane starts, that its working directory exists and its program can be
 * run (a path that is an executable file, or a name found on `PATH`): a PTY would otherwise start,
 * print an exec error and exit at once, and the pane would look created.
 * Throws `ORCA_HOST_PANE_SPAWN` saying which and what to do.
 *
 * @example
 * checkLaunch('claude', '/work/project', process.env.PATH);
 */
export function checkLaunch(file: string, cwd: string, pathVar: string | undefined): void {
  let dir: ReturnType<typeof statSync> | null = null;
  try {
    dir = statSync(cwd);
  } catch {
    // reported below
  }
  if (!dir?.isDirectory())
    throw new HostError(
      'ORCA_HOST_PANE_SPAWN',
      `cannot start ${file}: the directory ${cwd} does not exist; check --cwd`,
      {
        context: { file, cwd },
      },
    );
  if (file.includes('/')) {
    const target = isAbsolute(file) ? file : resolve(cwd, file);
    if (!isExecutableFile(target))
      throw new HostError('ORCA_HOST_PANE_SPAWN', `cannot start ${file}: ${target} is not an executable file`, {
        context: { file, cwd },
      });
    return;
  }
  // Why: execvp's own default when the environment has no PATH.
  const dirs = (pathVar ?? '/bin:/usr/bin').split(delimiter).filter((d) => d.length > 0);
  if (dirs.some((d) => isExecutableFile(join(isAbsolute(d) ? d : resolve(cwd, d), file)))) return;
  throw new HostError(
    'ORCA_HOST_PANE_SPAWN',
    `cannot start ${file}: command not found on the pane's PATH; install it or give its full path`,
    { context: { file, cwd } },
  );
}
