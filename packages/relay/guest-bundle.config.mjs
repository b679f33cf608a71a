// Build config of the self-contained guest relay bundle dist/guest-relay.cjs (CJS, node18, no externals).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));

/** Build the bundle; returns its path. */
export async function buildGuestBundle() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const outfile = join(root, 'dist', 'guest-relay.cjs');
  await build({
    entryPoints: [join(root, 'src/guest/bundle-entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    conditions: ['orca-source'],
    logLevel: 'error',
    minify: true,
    define: {
      __ORCA_RELAY_PKG_VERSION__: JSON.stringify(pkg.version),
      __ORCA_RELAY_BUNDLE_SELF__: 'true',
      'import.meta.url': '""',
    },
    banner: { js: '// orca-relay guest bundle: self-contained, generated; do not edit.' },
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildGuestBundle();
