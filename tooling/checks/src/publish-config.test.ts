import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publishableManifest, writeFixtureWorkspace } from './fixture-workspace.test-helper.ts';
import { checkPublishConfig } from './publish-config.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const published = {
  '.': { types: './dist/index.d.ts', default: './dist/index.js' },
  './package.json': './package.json',
};

describe('checkPublishConfig', () => {
  it('accepts a public package whose publishConfig.exports is exports without orca-source', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire'), publishConfig: { exports: published } },
      },
    ]);
    expect(checkPublishConfig(root)).toEqual([]);
  });

  it('ignores private packages', () => {
    const root = writeFixtureWorkspace([
      { dir: 'tests/contracts', manifest: { ...publishableManifest('@orca/contracts-tests'), private: true } },
    ]);
    expect(checkPublishConfig(root)).toEqual([]);
  });

  it('reports a public package without publishConfig.exports', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: { ...publishableManifest('@orca/wire'), publishConfig: { access: 'public' } },
      },
    ]);
    expect(checkPublishConfig(root)).toEqual([
      {
        dir: 'packages/wire',
        message: 'packages/wire is public but has no "publishConfig.exports" (its "exports" would ship "orca-source")',
      },
    ]);
  });

  it('reports orca-source in publishConfig.exports and subpaths missing or extra', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: {
          ...publishableManifest('@orca/wire'),
          publishConfig: {
            exports: {
              '.': { 'orca-source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
            },
          },
        },
      },
      {
        dir: 'packages/relay',
        manifest: {
          ...publishableManifest('@orca/relay'),
          publishConfig: { exports: { ...published, './rpc': { types: './dist/rpc.d.ts', default: './dist/rpc.js' } } },
        },
      },
    ]);
    expect(checkPublishConfig(root).map((v) => v.message)).toEqual([
      'packages/relay publishConfig.exports subpaths differ from exports: missing [], extra [./rpc]',
      'packages/wire publishConfig.exports["."] mentions "orca-source", which the tarball cannot resolve',
      'packages/wire publishConfig.exports subpaths differ from exports: missing [./package.json], extra []',
    ]);
  });

  it('reports an entry that drifted from its exports entry', () => {
    const root = writeFixtureWorkspace([
      {
        dir: 'packages/wire',
        manifest: {
          ...publishableManifest('@orca/wire'),
          publishConfig: { exports: { ...published, '.': { types: './dist/index.d.ts', default: './dist/main.js' } } },
        },
      },
    ]);
    expect(checkPublishConfig(root).map((v) => v.message)).toEqual([
      'packages/wire publishConfig.exports["."] is not exports["."] without "orca-source"',
    ]);
  });

  it('finds no violation in this repository', () => {
    expect(checkPublishConfig(repoRoot)).toEqual([]);
  });
});
