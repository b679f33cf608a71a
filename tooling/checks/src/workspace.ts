import fs from 'node:fs';
import path from 'node:path';

export const WORKSPACE_GROUPS = ['packages', 'apps', 'tests', 'tooling'] as const;

export interface WorkspacePackage {
  /** Folder relative to the workspace root, e.g. `packages/wire`. */
  dir: string;
  group: string;
  name: string;
  manifest: Record<string, unknown>;
}

/** Every folder with a package.json under the four workspace groups. */
export function listWorkspacePackages(root: string): WorkspacePackage[] {
  return WORKSPACE_GROUPS.flatMap((group) => {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) return [];
    return fs
      .readdirSync(groupDir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(groupDir, d.name, 'package.json')))
      .map((d) => {
        const manifest = JSON.parse(fs.readFileSync(path.join(groupDir, d.name, 'package.json'), 'utf8'));
        return { dir: `${group}/${d.name}`, group, name: String(manifest.name ?? d.name), manifest };
      });
  });
}

const SOURCE_EXTENSIONS = /\.(c|m)?(t|j)sx?$/;
// Why: `.cache` holds tests/wire-compat's extracted old releases (another package's history).
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.turbo', '.git', '.cache', 'coverage']);

/** Source files of a package (relative paths, `.d.ts` and fixtures included), skipping build output. */
export function listSourceFiles(packageDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (SOURCE_EXTENSIONS.test(entry.name)) {
        out.push(path.relative(packageDir, path.join(dir, entry.name)));
      }
    }
  };
  walk(packageDir);
  return out.sort();
}
