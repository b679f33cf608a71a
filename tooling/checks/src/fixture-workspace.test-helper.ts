import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FixturePackage {
  dir: string;
  manifest: Record<string, unknown>;
  files?: Record<string, string>;
  readme?: boolean;
}

/** Writes a throwaway workspace with the given packages; returns its root. */
export function writeFixtureWorkspace(packages: FixturePackage[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'orca-checks-'));
  for (const pkg of packages) {
    const dir = path.join(root, pkg.dir);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg.manifest));
    if (pkg.readme !== false) fs.writeFileSync(path.join(dir, 'README.md'), '# x\n');
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    if (!pkg.files?.['src/index.ts']) fs.writeFileSync(path.join(dir, 'src/index.ts'), 'export {};\n');
    for (const [file, text] of Object.entries(pkg.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  }
  return root;
}

/** A well-formed publishable manifest for `name` with the given runtime dependencies. */
export function publishableManifest(name: string, dependencies: Record<string, string> = {}) {
  return {
    name,
    type: 'module',
    exports: {
      '.': { 'orca-source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    files: ['dist'],
    dependencies,
  };
}
