import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DriftError } from './drift-error.ts';
import { type NpmRunner, runNpm } from './registry.ts';

/** Where `drift` keeps the releases it installed (one npm prefix per package and version). */
export function driftCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return (
    env.ORCA_LAB_DRIFT_CACHE ??
    path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'orca-agents-lab', 'drift')
  );
}

/** The version of `pkg` installed under the npm prefix `dir`, or null. */
export function installedVersion(dir: string, pkg: string): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
}

/**
 * Installs `pkg@version` into its own npm prefix under `root` (kept: a second run reuses it) and
 * returns the prefix. Lifecycle scripts do not run: the lab links a CLI's platform binary itself.
 */
export async function installRelease(
  pkg: string,
  version: string,
  root: string = driftCacheRoot(),
  npm: NpmRunner = runNpm,
): Promise<string> {
  const dir = path.join(root, `${pkg.replace('/', '+')}@${version}`);
  if (installedVersion(dir, pkg) === version) return dir;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Why: without a package.json of its own, npm walks up and installs into an enclosing project.
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  try {
    await npm([
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `${pkg}@${version}`,
    ]);
  } catch (error) {
    throw new DriftError('install_failed', `${pkg}@${version}: ${(error as Error).message}`);
  }
  const got = installedVersion(dir, pkg);
  if (got !== version)
    throw new DriftError('install_failed', `${pkg}@${version}: npm left ${got ?? 'nothing'} in ${dir}`);
  return dir;
}
