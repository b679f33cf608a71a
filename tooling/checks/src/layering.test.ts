import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableManifest, writeFixtureWorkspace } from './fixture-workspace.test-helper.ts';
import { checkLayering } from './layering.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function workspaceWith(files: Record<string, string>, wireDeps: Record<string, string> = {}) {
  return writeFixtureWorkspace([
    { dir: 'packages/wire', manifest: publishableManifest('@orca/wire', wireDeps), files },
    {
      dir: 'packages/relay',
      manifest: publishableManifest('@orca/relay', { '@orca/wire': 'workspace:^', zod: '4.0.0' }),
      files: { 'src/index.ts': "import { x } from '@orca/wire';\nimport { z } from 'zod';\nexport { x, z };\n" },
    },
    {
      dir: 'packages/agent-status',
      manifest: publishableManifest('@orca/agent-status'),
      files: { 'src/index.ts': 'export {};\n' },
    },
    { dir: 'apps/host', manifest: publishableManifest('@orca/host'), files: { 'src/index.ts': 'export {};\n' } },
  ]);
}

describe('checkLayering', () => {
  it('accepts a workspace whose imports all point down', () => {
    expect(
      checkLayering(workspaceWith({ 'src/index.ts': "import fs from 'node:fs';\nexport const a = fs;\n" })),
    ).toEqual([]);
  });

  it('catches a floor-1 package importing floor 2 (@orca/wire → @orca/relay), naming file and import', () => {
    const root = workspaceWith(
      { 'src/codec.ts': "import { relay } from '@orca/relay';\nexport { relay };\n" },
      { '@orca/relay': 'workspace:^' },
    );
    expect(checkLayering(root)).toEqual([
      {
        rule: 'upward-import',
        file: 'packages/wire/src/codec.ts',
        specifier: '@orca/relay',
        message:
          "packages/wire/src/codec.ts imports '@orca/relay' (floor 2) from @orca/wire (floor 1); imports must point down",
      },
    ]);
  });

  it('catches a sideways import on the same floor, including type-only and dynamic imports', () => {
    const root = workspaceWith(
      {
        'src/a.ts': "import type { V } from '@orca/agent-status';\nexport type { V };\n",
        'src/b.ts': "export const load = () => import('@orca/agent-status');\n",
      },
      { '@orca/agent-status': 'workspace:^' },
    );
    expect(checkLayering(root).map((v) => [v.rule, v.file])).toEqual([
      ['upward-import', 'packages/wire/src/a.ts'],
      ['upward-import', 'packages/wire/src/b.ts'],
    ]);
  });

  it('catches any package importing @orca/host', () => {
    const root = workspaceWith({ 'src/a.ts': "export * from '@orca/host';\n" }, { '@orca/host': 'workspace:^' });
    expect(checkLayering(root).map((v) => v.message)).toEqual([
      "packages/wire/src/a.ts imports '@orca/host' (floor 3) from @orca/wire (floor 1); imports must point down",
    ]);
  });

  it('catches deep imports of src/ or dist/ even when the direction is allowed', () => {
    const root = writeFixtureWorkspace([
      { dir: 'packages/wire', manifest: publishableManifest('@orca/wire'), files: { 'src/index.ts': 'export {};\n' } },
      {
        dir: 'packages/relay',
        manifest: publishableManifest('@orca/relay', { '@orca/wire': 'workspace:^' }),
        files: { 'src/index.ts': "import '@orca/wire/src/rpc/index.ts';\nimport '@orca/wire/dist/rpc.js';\n" },
      },
    ]);
    expect(checkLayering(root).map((v) => [v.rule, v.specifier])).toEqual([
      ['deep-import', '@orca/wire/src/rpc/index.ts'],
      ['deep-import', '@orca/wire/dist/rpc.js'],
    ]);
  });

  it('catches a relative import that escapes into another package', () => {
    const root = workspaceWith({ 'src/a.ts': "import '../../relay/src/index.ts';\n" });
    expect(checkLayering(root).map((v) => [v.rule, v.file, v.specifier])).toEqual([
      ['escaping-relative-import', 'packages/wire/src/a.ts', '../../relay/src/index.ts'],
    ]);
  });

  it('catches a dependency used in code but missing from package.json, and devDependencies in shipped code', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire', { zod: '4' }), devDependencies: { 'fast-check': '4' } },
        files: {
          'src/index.ts':
            "import { z } from 'zod';\nimport fc from 'fast-check';\nimport { parse } from 'smol-toml';\nexport { z, fc, parse };\n",
          'src/index.test.ts': "import fc from 'fast-check';\nexport { fc };\n",
        },
      },
    ]);
    expect(checkLayering(root).map((v) => v.message)).toEqual([
      "packages/wire/src/index.ts imports 'fast-check' but packages/wire/package.json does not list 'fast-check' in dependencies",
      "packages/wire/src/index.ts imports 'smol-toml' but packages/wire/package.json does not list 'smol-toml' in dependencies",
    ]);
  });

  it('finds no violation in this repository', () => {
    expect(checkLayering(repoRoot)).toEqual([]);
  });
});

describe('checkLayering and tooling', () => {
  it('allows tooling in configs, tests and dev/ (run from source only) but not in shipped code', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'tooling/config',
        manifest: { name: '@orca/config', type: 'module' },
        files: { 'index.js': 'export {};\n' },
      },
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire', {}), devDependencies: { '@orca/config': 'workspace:^' } },
        files: {
          'vitest.config.ts': "import { orcaVitest } from '@orca/config/vitest';\nexport default orcaVitest();\n",
          'dev/run-from-source.mjs': "import '@orca/config/vitest';\n",
          'src/index.ts': "import '@orca/config/vitest';\n",
        },
      },
    ]);
    expect(checkLayering(root).map((v) => [v.rule, v.file])).toEqual([
      ['upward-import', 'packages/wire/src/index.ts'],
      ['undeclared-dependency', 'packages/wire/src/index.ts'],
    ]);
  });
});

describe('checkLayering and the inlined helpers (@orca/shared)', () => {
  const shared = {
    dir: 'tooling/shared',
    manifest: { name: '@orca/shared', type: 'module', private: true },
    files: { 'src/printable.ts': 'export {};\n' },
  };

  it('shipped code may import them as a devDependency; as a runtime dependency or undeclared it may not', () => {
    const root = writeFixtureWorkspace([
      shared,
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire', {}), devDependencies: { '@orca/shared': 'workspace:^' } },
        files: { 'src/index.ts': "import '@orca/shared/printable';\n" },
      },
      {
        dir: 'packages/agent-status',
        manifest: publishableManifest('@orca/agent-status', { '@orca/shared': 'workspace:^' }),
        files: { 'src/index.ts': "import '@orca/shared/printable';\n" },
      },
      {
        dir: 'packages/command-hooks',
        manifest: publishableManifest('@orca/command-hooks'),
        files: { 'src/index.ts': "import '@orca/shared/printable';\n" },
      },
    ]);
    expect(checkLayering(root).map((v) => [v.rule, v.file])).toEqual([
      ['undeclared-dependency', 'packages/agent-status/src/index.ts'],
      ['undeclared-dependency', 'packages/command-hooks/src/index.ts'],
    ]);
  });

  it('a package ARCHITECTURE.md narrows (the browser client) may not import them', () => {
    const root = writeFixtureWorkspace([
      shared,
      {
        dir: 'apps/web',
        manifest: { ...publishableManifest('@orca/web', {}), devDependencies: { '@orca/shared': 'workspace:^' } },
        files: { 'src/index.ts': "import '@orca/shared/printable';\n" },
      },
    ]);
    expect(checkLayering(root).map((v) => [v.rule, v.file])).toEqual([['upward-import', 'apps/web/src/index.ts']]);
  });
});

describe('checkLayering sees every import form', () => {
  const forms: Record<string, string> = {
    'export-star-as.ts': "export * as h from '@orca/host';\n",
    'after-regex.ts': "const r = /`/;\nexport { r };\nimport '@orca/host';\n",
    'vi-import-actual.test.ts': "await vi.importActual('@orca/host');\n",
    'vi-mock.test.ts': "vi.mock('@orca/host');\n",
    'create-require.ts':
      "import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('@orca/host');\n",
    'require.cts': "const h = require('@orca/host');\nexport = h;\n",
    'require-resolve.ts': "require.resolve('@orca/host');\n",
    'meta-resolve.mts': "import.meta.resolve('@orca/host');\n",
    'import-equals.ts': "import h = require('@orca/host');\nexport { h };\n",
    'import-type-node.ts': "export type H = import('@orca/host').Host;\n",
    // Why: the fixture is source text holding a template literal, so its `${` is spelled in two parts.
    'template-import.ts': 'export const load = (n: string) => import(`@orca/host/$' + '{n}`);\n',
    'types.d.ts': "declare module 'x' { export * from '@orca/host'; }\n",
    'fixtures/helper.ts': "export * from '@orca/host';\n",
  };

  it.each(Object.entries(forms))('%s', (file, text) => {
    const root = workspaceWith({ [`src/${file}`]: text }, { '@orca/host': 'workspace:^' });
    expect(
      checkLayering(root)
        .filter((v) => v.specifier.startsWith('@orca/host'))
        .map((v) => [v.rule, v.file]),
    ).toEqual([['upward-import', `packages/wire/src/${file}`]]);
  });

  it('a reference path and a worker URL that leave the package are caught', () => {
    const root = workspaceWith({
      'src/ref.ts': '/// <reference path="../../relay/src/x.ts" />\nexport {};\n',
      'src/worker.ts': "new Worker(new URL('../../relay/src/x.ts', import.meta.url));\n",
    });
    expect(checkLayering(root).map((v) => [v.rule, v.file])).toEqual([
      ['escaping-relative-import', 'packages/wire/src/ref.ts'],
      ['escaping-relative-import', 'packages/wire/src/worker.ts'],
    ]);
  });

  it('@orca/relay may import @orca/wire but no other floor-1 package', () => {
    const root = workspaceWith({ 'src/index.ts': 'export {};\n' });
    writeFileSync(
      path.join(root, 'packages/relay/src/status.ts'),
      "import { x } from '@orca/agent-status';\nexport { x };\n",
    );
    const relayManifest = path.join(root, 'packages/relay/package.json');
    const manifest = JSON.parse(readFileSync(relayManifest, 'utf8'));
    manifest.dependencies['@orca/agent-status'] = 'workspace:^';
    writeFileSync(relayManifest, JSON.stringify(manifest));
    expect(checkLayering(root).map((v) => v.message)).toEqual([
      "packages/relay/src/status.ts imports '@orca/agent-status' (floor 1) from @orca/relay (floor 2); ARCHITECTURE.md lets @orca/relay import only @orca/wire, @orca/shared",
    ]);
  });
});
