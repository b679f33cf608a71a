// Plain JS (with tsup.preset.d.ts) because config loaders externalize workspace links and
// Node 20 cannot import a .ts file on its own.
import { defineConfig } from 'tsup';

/**
 * The one tsup preset every @orca package reuses: ESM only, declarations on, Node 20 target,
 * nothing bundled that is a dependency (tsup externalizes `dependencies` by default).
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
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    ...overrides,
  });
}
