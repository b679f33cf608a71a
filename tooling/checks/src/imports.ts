import { builtinModules } from 'node:module';
import ts from 'typescript';

/** Every module specifier a file imports: static, type-only, `export … from`, dynamic `import()`. */
export function readImports(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

const BUILTINS = new Set(builtinModules);

/** `true` for `node:fs`, `fs`, `fs/promises`. */
export function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0] ?? '');
}

/** The package part of a bare specifier: `@orca/wire/rpc` → `@orca/wire`, `zod/v4` → `zod`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The subpath after the package name, '' when none: `@orca/wire/src/x` → `src/x`. */
export function subpathOf(specifier: string): string {
  const name = packageNameOf(specifier);
  return specifier.length > name.length ? specifier.slice(name.length + 1) : '';
}
