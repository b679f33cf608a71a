import { createRequire } from 'node:module';

declare const __ORCA_PKG_VERSION__: string | undefined;

function readVersion(): string {
  if (typeof __ORCA_PKG_VERSION__ === 'string') return __ORCA_PKG_VERSION__;
  const require = createRequire(import.meta.url);
  // Why: from src/internal/ the manifest is two levels up, from the bundled dist/ one level.
  for (const candidate of ['../../package.json', '../package.json']) {
    try {
      const pkg: unknown = require(candidate);
      if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === '@orca/command-hooks') {
        if ('version' in pkg && typeof pkg.version === 'string') return pkg.version;
      }
    } catch {}
  }
  return '0.0.0';
}

/** This package's version (for Cursor's `cursor_version: "orca/<version>"`). */
export const PACKAGE_VERSION = readVersion();
