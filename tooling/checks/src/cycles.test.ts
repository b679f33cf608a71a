import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkImportCycles, importGraph } from './cycles.ts';
import { publishableManifest, writeFixtureWorkspace } from './fixture-workspace.test-helper.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function wireWith(files: Record<string, string>): string {
  return writeFixtureWorkspace([{ dir: 'packages/wire', manifest: publishableManifest('@orca/wire'), files }]);
}

describe('checkImportCycles', () => {
  it('accepts a package whose relative imports form no loop', () => {
    const root = wireWith({
      'src/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
      'src/b.ts': "import { c } from './util/c.js';\nexport const b = c;\n",
      'src/util/c.ts': 'export const c = 1;\n',
    });
    expect(checkImportCycles(root)).toEqual([]);
  });

  it('reports a deliberate two-file cycle, naming both files in import order', () => {
    const root = wireWith({
      'src/frame.ts': "import { payload } from './payload.ts';\nexport const frame = () => payload;\n",
      'src/payload.ts': "import { frame } from './frame.ts';\nexport const payload = () => frame;\n",
    });
    expect(checkImportCycles(root)).toEqual([
      {
        packageDir: 'packages/wire',
        files: ['src/frame.ts', 'src/payload.ts'],
        message:
          'import cycle in packages/wire: packages/wire/src/frame.ts → packages/wire/src/payload.ts → packages/wire/src/frame.ts; move the shared part into a file both can import',
      },
    ]);
  });

  it('counts type-only imports, re-exports, `.js` specifiers and folder indexes', () => {
    const root = wireWith({
      'src/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
      'src/b.ts': "export * from './c';\nexport type B = number;\n",
      'src/c/index.ts': "export type { A } from '../a.ts';\n",
    });
    const cycles = checkImportCycles(root);
    expect(cycles.map((c) => c.files)).toEqual([['src/a.ts', 'src/b.ts', 'src/c/index.ts']]);
  });

  it('reports a file that imports itself', () => {
    const root = wireWith({ 'src/self.ts': "import * as me from './self.ts';\nexport const x = me;\n" });
    expect(checkImportCycles(root).map((c) => c.files)).toEqual([['src/self.ts']]);
  });

  it('builds the graph from relative imports only (packages and builtins are not edges)', () => {
    const root = wireWith({
      'src/a.ts':
        "import fs from 'node:fs';\nimport { z } from 'zod';\nimport { b } from './b.ts';\nexport { fs, z, b };\n",
      'src/b.ts': 'export const b = 1;\n',
    });
    expect(importGraph(path.join(root, 'packages/wire')).get('src/a.ts')).toEqual(['src/b.ts']);
  });

  it('finds no import cycle inside any package of this repository', () => {
    expect(checkImportCycles(repoRoot).map((c) => c.message)).toEqual([]);
  });
});
