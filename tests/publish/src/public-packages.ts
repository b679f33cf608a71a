import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the workspace this suite sits in. */
export const WORKSPACE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The manifest fields this suite reads. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  publishConfig?: { exports?: Record<string, unknown> };
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** A package of `packages/*` or `apps/*` without `"private": true`. */
export interface PublicPackage {
  /** Folder, absolute. */
  dir: string;
  manifest: PackageManifest;
}

/** Every string target under an `exports` value (conditions nested to any depth). */
export function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

/** `bin` as a name → path map (a string `bin` is named after the unscoped package name). */
export function binEntries(manifest: PackageManifest): Record<string, string> {
  if (typeof manifest.bin === 'string') return { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin };
  return manifest.bin ?? {};
}

/** Files a built package must have: every published export target and every bin. */
export function builtFiles(pkg: PublicPackage): string[] {
  const published = pkg.manifest.publishConfig?.exports ?? pkg.manifest.exports ?? {};
  return [...new Set([...exportTargets(published), ...Object.values(binEntries(pkg.manifest))])].map((f) =>
    path.join(pkg.dir, f),
  );
}

/** The public packages, dependencies before their dependents (the order they build in). */
export function publicPackages(root: string = WORKSPACE_ROOT): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const group of ['packages', 'apps']) {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const name of fs.readdirSync(groupDir).sort()) {
      const file = path.join(groupDir, name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as PackageManifest;
      if (manifest.private !== true) found.push({ dir: path.join(groupDir, name), manifest });
    }
  }
  const byName = new Map(found.map((p) => [p.manifest.name, p]));
  const ordered: PublicPackage[] = [];
  const visit = (pkg: PublicPackage) => {
    if (ordered.includes(pkg)) return;
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) {
      const inner = byName.get(dep);
      if (inner) visit(inner);
    }
    ordered.push(pkg);
  };
  for (const pkg of found) visit(pkg);
  return ordered;
}
