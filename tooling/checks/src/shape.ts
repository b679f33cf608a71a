import fs from 'node:fs';
import path from 'node:path';
import { listWorkspacePackages, type WorkspacePackage } from './workspace.ts';

export interface ShapeViolation {
  dir: string;
  message: string;
}

const ORCA_SOURCE = 'orca-source';
const CONDITION_ORDER = [ORCA_SOURCE, 'types', 'default'];

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
        continue;
      }
      const conditions = value as Record<string, unknown>;
      // Why: Node takes the first matching condition; `orca-source` must come first or tests
      // would silently run against dist/, and `types` must precede `default`.
      const order = Object.keys(conditions).filter((c) => CONDITION_ORDER.includes(c));
      if (order.join(',') !== CONDITION_ORDER.join(',')) {
        problems.push(
          `exports["${key}"] conditions are [${order.join(', ')}]; expected [${CONDITION_ORDER.join(', ')}]`,
        );
      }
      const source = conditions[ORCA_SOURCE];
      if (typeof source === 'string' && !fs.existsSync(path.join(root, pkg.dir, source))) {
        problems.push(`exports["${key}"]["${ORCA_SOURCE}"] points at ${source}, which does not exist`);
      }
    }
  }
  if (!Array.isArray(m.files) || m.files.length === 0) problems.push('has no "files" list');
  if (!fs.existsSync(path.join(root, pkg.dir, 'README.md'))) problems.push('has no README.md');
  return problems;
}

/**
 * Every package is ESM; published ones (packages/*, apps/*) have an `exports` map whose entries
 * list `orca-source` (an existing file), `types`, `default` in that order, a `files` list and a
 * README; internal dependencies are `workspace:^`, third-party ones `catalog:`.
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
        } else if (!names.has(dep) && !range.startsWith('catalog:')) {
          problems.push(`${field}["${dep}"] is "${range}"; third-party versions are pinned once with "catalog:"`);
        }
      }
    }
    return problems.map((message) => ({ dir: pkg.dir, message: `${pkg.dir} ${message}` }));
  });
}
