import fs from 'node:fs';
import path from 'node:path';
import { listWorkspacePackages, type WorkspacePackage } from './workspace.ts';

export interface ShapeViolation {
  dir: string;
  message: string;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

function checkPublishable(pkg: WorkspacePackage, root: string): string[] {
  const problems: string[] = [];
  const m = pkg.manifest;
  const exportsMap = m.exports as Record<string, unknown> | undefined;
  if (!exportsMap || typeof exportsMap !== 'object') {
    problems.push('has no "exports" map');
  } else {
    for (const [key, value] of Object.entries(exportsMap)) {
      if (key === './package.json') continue;
      if (!value || typeof value !== 'object' || typeof (value as Record<string, unknown>).types !== 'string') {
        problems.push(`exports["${key}"] has no "types" condition`);
      }
    }
  }
  if (!Array.isArray(m.files) || m.files.length === 0) problems.push('has no "files" list');
  if (!fs.existsSync(path.join(root, pkg.dir, 'README.md'))) problems.push('has no README.md');
  return problems;
}

/**
 * Every package is ESM; published ones (packages/*, apps/*) have an `exports` map with
 * `types`, a `files` list and a README; every internal dependency is `workspace:^`.
 */
export function checkWorkspaceShape(root: string): ShapeViolation[] {
  const packages = listWorkspacePackages(root);
  const names = new Set(packages.map((p) => p.name));
  return packages.flatMap((pkg) => {
    const problems: string[] = [];
    if (pkg.manifest.type !== 'module') problems.push('is not ESM ("type": "module" missing)');
    if (pkg.group === 'packages' || pkg.group === 'apps') problems.push(...checkPublishable(pkg, root));
    for (const field of DEPENDENCY_FIELDS) {
      const deps = (pkg.manifest[field] ?? {}) as Record<string, string>;
      for (const [dep, range] of Object.entries(deps)) {
        if (names.has(dep) && range !== 'workspace:^') {
          problems.push(`${field}["${dep}"] is "${range}"; internal dependencies must be "workspace:^"`);
        }
      }
    }
    return problems.map((message) => ({ dir: pkg.dir, message: `${pkg.dir} ${message}` }));
  });
}
