import { readFileSync } from 'node:fs';

declare const __ORCA_PKG_VERSION__: string | undefined;

function manifestVersion(): string {
  try {
    // Why: run from source (tsx, vitest) nothing is inlined; src/internal/ sits two levels below package.json.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    if (pkg.name === '@orca/hook-templates' && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // no readable manifest: report the unknown version below
  }
  return '0.0.0-unknown';
}

/** This package's version: inlined from package.json by the shared tsup preset, read from it in source. */
export const PACKAGE_VERSION: string =
  typeof __ORCA_PKG_VERSION__ === 'string' ? __ORCA_PKG_VERSION__ : manifestVersion();
