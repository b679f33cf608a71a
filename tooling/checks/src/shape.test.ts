import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableManifest, writeFixtureWorkspace } from './fixture-workspace.test-helper.ts';
import { checkWorkspaceShape } from './shape.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('checkWorkspaceShape', () => {
  it('accepts a well-formed package', () => {
    const root = writeFixtureWorkspace([{ dir: 'packages/wire', manifest: publishableManifest('@orca/wire') }]);
    expect(checkWorkspaceShape(root)).toEqual([]);
  });

  it('reports CommonJS, a missing exports map, files list and README', () => {
    const root = writeFixtureWorkspace([{ dir: 'packages/wire', manifest: { name: '@orca/wire' }, readme: false }]);
    expect(checkWorkspaceShape(root).map((v) => v.message)).toEqual([
      'packages/wire is not ESM ("type": "module" missing)',
      'packages/wire has no "exports" map',
      'packages/wire has no "files" list',
      'packages/wire has no README.md',
    ]);
  });

  it('reports an export without types and an internal dependency not on workspace:^', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire'), exports: { '.': { default: './dist/index.js' } } },
      },
      { dir: 'packages/relay', manifest: publishableManifest('@orca/relay', { '@orca/wire': '^0.1.0' }) },
    ]);
    expect(checkWorkspaceShape(root).map((v) => v.message)).toEqual([
      'packages/relay dependencies["@orca/wire"] is "^0.1.0"; internal dependencies must be "workspace:^"',
      'packages/wire exports["."] has no "types" condition',
    ]);
  });

  it('reports conditions out of order, a missing orca-source file and an unpinned third-party range', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: {
          ...publishableManifest('@orca/wire', { zod: '^4.0.0', 'fast-check': 'catalog:' }),
          exports: {
            '.': { types: './dist/index.d.ts', default: './dist/index.js', 'orca-source': './src/index.ts' },
            './rpc': { 'orca-source': './src/rpc/index.ts', types: './dist/rpc.d.ts', default: './dist/rpc.js' },
          },
        },
      },
    ]);
    expect(checkWorkspaceShape(root).map((v) => v.message)).toEqual([
      'packages/wire exports["."] conditions are [types, default, orca-source]; expected [orca-source, types, default]',
      'packages/wire exports["./rpc"]["orca-source"] points at ./src/rpc/index.ts, which does not exist',
      'packages/wire dependencies["zod"] is "^4.0.0"; third-party versions are pinned once with "catalog:"',
    ]);
  });

  it('finds no violation in this repository', () => {
    expect(checkWorkspaceShape(repoRoot)).toEqual([]);
  });
});
