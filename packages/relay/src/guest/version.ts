import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

declare const __ORCA_RELAY_PKG_VERSION__: string | undefined;
declare const __ORCA_RELAY_BUNDLE_SELF__: boolean | undefined;
declare const __ORCA_PKG_VERSION__: string | undefined;

/** The package version (inlined into the guest bundle at build time). */
export function relayPackageVersion(): string {
  if (typeof __ORCA_RELAY_PKG_VERSION__ === 'string') return __ORCA_RELAY_PKG_VERSION__;
  if (typeof __ORCA_PKG_VERSION__ === 'string') return __ORCA_PKG_VERSION__;
  // Why: src/guest/*.ts sits two levels below package.json, built dist/*.js one level.
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === '@orca/relay' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
}

/**
 * `relayVersion = <pkg version>+<sha256(bundle) first 12 hex>`.
 *
 * @example
 * relayVersion(code) // '0.1.0+3f2a9c0d1e2b'
 */
export function relayVersion(code: Uint8Array, pkgVersion: string = relayPackageVersion()): string {
  return `${pkgVersion}+${createHash('sha256').update(code).digest('hex').slice(0, 12)}`;
}

let cached: string | undefined;

/** The version of the running relay: the bundle's own hash when bundled, else `<pkg>+source`. */
export function currentRelayVersion(): string {
  if (cached !== undefined) return cached;
  if (typeof __ORCA_RELAY_BUNDLE_SELF__ === 'boolean' && __ORCA_RELAY_BUNDLE_SELF__ && typeof __filename === 'string') {
    cached = relayVersion(readFileSync(__filename));
  } else {
    cached = `${relayPackageVersion()}+source`;
  }
  return cached;
}
