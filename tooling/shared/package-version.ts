import { readFileSync } from 'node:fs';

// Why: the shared tsup preset defines it as the building package's version; this file is inlined
// into each package, so each gets its own.
declare const __ORCA_PKG_VERSION__: string | undefined;

/** A package's version that no manifest gave. */
export const UNKNOWN_VERSION = '0.0.0-unknown';

/**
 * The calling package's version: the one its build inlined, or, run from source (tsx, vitest),
 * the `version` of the manifest at `manifest` when that manifest is package `name`'s.
 *
 * @example
 * export const PACKAGE_VERSION = packageVersion('@orca/host', new URL('../package.json', import.meta.url));
 */
export function packageVersion(name: string, manifest: URL): string {
  if (typeof __ORCA_PKG_VERSION__ === 'string') return __ORCA_PKG_VERSION__;
  try {
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
    if (pkg.name === name && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // no readable manifest: the unknown version below
  }
  return UNKNOWN_VERSION;
}
