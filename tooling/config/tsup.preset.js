// Plain JS (with tsup.preset.d.ts) because config loaders externalize workspace links and
// Node 20 cannot import a .ts file on its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

// Why: tsup runs in the package's directory; its manifest's version is inlined as
// `__ORCA_PKG_VERSION__`, so a CLI prints its own version without reading files at run time.
function packageVersion() {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0-unknown';
}

/**
 * The one tsup preset every @orca package reuses: ESM only, declarations on, Node 20 target,
 * nothing bundled that is a dependency (tsup externalizes `dependencies` by default) except the
 * private helpers of `@orca/shared`, which are inlined.
 *
 * @example
 * // packages/wire/tsup.config.ts
 * import { orcaTsup } from '@orca/config/tsup';
 * export default orcaTsup({ index: 'src/index.ts', rpc: 'src/rpc/index.ts' });
 */
export function orcaTsup(entry, overrides = {}) {
  return defineConfig({
    entry,
    format: ['esm'],
    // Why: types of @orca/shared a package re-exports are inlined into its .d.ts like its code.
    dts: { resolve: [/^@orca\/shared(\/|$)/] },
    clean: true,
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    ...overrides,
    // Why: @orca/shared is private; its helpers are inlined so no published package depends on it.
    noExternal: [/^@orca\/shared(\/|$)/, ...(overrides.noExternal ?? [])],
    define: { __ORCA_PKG_VERSION__: JSON.stringify(packageVersion()), ...overrides.define },
  });
}
