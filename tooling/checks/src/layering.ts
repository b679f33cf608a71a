import fs from 'node:fs';
import path from 'node:path';
import { ALLOWED_INTERNAL_IMPORTS, floorOf, INLINED_PACKAGES } from './floors.ts';
import { isBuiltin, packageNameOf, readImports, subpathOf } from './imports.ts';
import { listSourceFiles, listWorkspacePackages, type WorkspacePackage } from './workspace.ts';

export type LayeringRule = 'upward-import' | 'deep-import' | 'undeclared-dependency' | 'escaping-relative-import';

export interface LayeringViolation {
  rule: LayeringRule;
  /** File relative to the workspace root. */
  file: string;
  specifier: string;
  message: string;
}

// Why: test files, benches, build configs and `dev/` (what runs only from source, never shipped) may
// use devDependencies; shipped code may not.
const DEV_ONLY_FILE = /(\.test\.|\.bench\.|(^|\/)(test|bench|tests|fixtures|dev)\/|^[^/]+\.config\.)/;

function declared(manifest: Record<string, unknown>, field: string): Set<string> {
  const value = manifest[field];
  return new Set(value && typeof value === 'object' ? Object.keys(value) : []);
}

function checkFile(
  root: string,
  pkg: WorkspacePackage,
  file: string,
  byName: Map<string, WorkspacePackage>,
): LayeringViolation[] {
  const violations: LayeringViolation[] = [];
  const where = `${pkg.dir}/${file}`;
  const source = fs.readFileSync(path.join(root, pkg.dir, file), 'utf8');
  const runtimeDeps = new Set([
    ...declared(pkg.manifest, 'dependencies'),
    ...declared(pkg.manifest, 'peerDependencies'),
  ]);
  const allDeps = new Set([...runtimeDeps, ...declared(pkg.manifest, 'devDependencies')]);
  const devOnly = DEV_ONLY_FILE.test(file);
  const myFloor = floorOf(pkg.name, pkg.group);

  for (const specifier of readImports(source, file)) {
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      const target = path.resolve(root, pkg.dir, path.dirname(file), specifier);
      const packageRoot = path.resolve(root, pkg.dir);
      if (target !== packageRoot && !target.startsWith(packageRoot + path.sep)) {
        violations.push({
          rule: 'escaping-relative-import',
          file: where,
          specifier,
          message: `${where} imports '${specifier}', a path outside ${pkg.dir}; import the package by name instead`,
        });
      }
      continue;
    }
    if (isBuiltin(specifier)) continue;
    const name = packageNameOf(specifier);
    const target = byName.get(name);
    if (target && name !== pkg.name) {
      const targetFloor = floorOf(target.name, target.group);
      // Why: tooling (presets, bench kit) sits under every floor but may only be used by
      // configs, tests and benches; shipped code importing it is reported like an upward import.
      const allowList = ALLOWED_INTERNAL_IMPORTS[pkg.name];
      const inlined = INLINED_PACKAGES.includes(target.name);
      const upMessage =
        target.group === 'tooling' && !inlined
          ? !(devOnly || pkg.group === 'tooling' || pkg.group === 'tests') &&
            `tooling is for configs, tests and benches only`
          : inlined
            ? allowList !== undefined &&
              !allowList.includes(target.name) &&
              `ARCHITECTURE.md lets ${pkg.name} import only ${allowList.join(', ')}`
            : targetFloor >= myFloor
              ? `imports must point down`
              : allowList !== undefined &&
                !allowList.includes(target.name) &&
                `ARCHITECTURE.md lets ${pkg.name} import only ${allowList.join(', ')}`;
      if (upMessage) {
        violations.push({
          rule: 'upward-import',
          file: where,
          specifier,
          message: `${where} imports '${specifier}' (floor ${targetFloor}) from ${pkg.name} (floor ${myFloor}); ${upMessage}`,
        });
      }
      const sub = subpathOf(specifier);
      if (/^(src|dist)(\/|$)/.test(sub)) {
        violations.push({
          rule: 'deep-import',
          file: where,
          specifier,
          message: `${where} deep-imports '${specifier}'; use a subpath of ${name}'s exports map`,
        });
      }
    }
    if (name === pkg.name) continue;
    const inlined = INLINED_PACKAGES.includes(name);
    // Why: an inlined package is bundled at build; as a runtime dependency the published manifest would name a private package.
    const ok = inlined
      ? declared(pkg.manifest, 'devDependencies').has(name) && !runtimeDeps.has(name)
      : devOnly
        ? allDeps.has(name)
        : runtimeDeps.has(name);
    if (!ok) {
      const field = inlined
        ? 'devDependencies (and not in dependencies: it is inlined at build)'
        : devOnly
          ? 'dependencies or devDependencies'
          : 'dependencies';
      violations.push({
        rule: 'undeclared-dependency',
        file: where,
        specifier,
        message: `${where} imports '${specifier}' but ${pkg.dir}/package.json does not list '${name}' in ${field}`,
      });
    }
  }
  return violations;
}

/**
 * Reads every workspace package's imports and reports each one that points up or sideways
 * across the floors, deep-imports `src/` or `dist/` of another package, leaves the package by a
 * relative path, or uses a package its manifest does not declare.
 */
export function checkLayering(root: string): LayeringViolation[] {
  const packages = listWorkspacePackages(root);
  const byName = new Map(packages.map((p) => [p.name, p]));
  return packages.flatMap((pkg) =>
    listSourceFiles(path.join(root, pkg.dir)).flatMap((file) => checkFile(root, pkg, file, byName)),
  );
}
