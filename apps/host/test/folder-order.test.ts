import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** apps/host/src folders, top to bottom (README "Folders point one way"); root files sit below all. */
const ORDER = [
  'cli',
  'demo',
  'web',
  'rpc',
  'resume',
  'host',
  'notify',
  'keeper',
  'panes',
  'guests',
  'agent-hooks',
  'command-hooks',
  'status',
  'store',
  'runtime',
];
const ROOT_ENTRIES = new Set(['index.ts', 'cli.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The rank of a file's folder: its place in ORDER, the root files below every folder (entries above). */
function rank(file: string): number {
  const rel = relative(src, file);
  const folder = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : null;
  if (folder === null) return ROOT_ENTRIES.has(rel) ? -1 : ORDER.length;
  const at = ORDER.indexOf(folder);
  if (at < 0) throw new Error(`apps/host/src/${folder} has no place in ORDER: add it where its imports put it`);
  return at;
}

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

describe('apps/host folders point one way', () => {
  it('no source file imports a file of a folder above its own', () => {
    const up: string[] = [];
    for (const file of sourceFiles(src)) {
      for (const m of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
        const target = normalize(join(dirname(file), m[1] ?? ''));
        if (rank(target) < rank(file)) up.push(`${relative(src, file)} → ${relative(src, target)}`);
      }
    }
    expect(up).toEqual([]);
  });

  it('the check sees an upward import (a store file importing a pane)', () => {
    expect(rank(join(src, 'panes', 'live-pane.ts'))).toBeLessThan(rank(join(src, 'store', 'store.ts')));
    expect(rank(join(src, 'constants.ts'))).toBeGreaterThan(rank(join(src, 'runtime', 'logger.ts')));
    expect(rank(join(src, 'cli.ts'))).toBeLessThan(rank(join(src, 'cli', 'program.ts')));
  });
});
