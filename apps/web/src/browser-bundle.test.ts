import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface BundleReport {
  /** Node built-ins some module of the graph imports, with the importer. */
  builtins: { source: string; importer: string }[];
  /** Every module id in the graph. */
  modules: string[];
  /** The emitted JavaScript. */
  code: string;
  /** The build's failure, if it failed (a built-in's missing export fails it). */
  error?: string;
}

/**
 * Builds the page with the app's own Vite config (in memory) and reports every Node built-in that
 * any module of the graph tries to import, and the emitted code.
 */
async function inspectBundle(input?: string): Promise<BundleReport> {
  const builtins: BundleReport['builtins'] = [];
  const modules: string[] = [];
  const recorder: Plugin = {
    name: 'orca-record-node-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source.startsWith('node:') || isBuiltin(source)) builtins.push({ source, importer: importer ?? '(entry)' });
      return null;
    },
    moduleParsed(info) {
      modules.push(info.id);
    },
  };
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'silent',
      plugins: [recorder],
      build: { write: false, ...(input ? { rollupOptions: { input } } : {}) },
    });
  } catch (error) {
    return { builtins, modules, code: '', error: (error as Error).message };
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const code = outputs
    .flatMap((o) => o.output)
    .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
    .join('\n');
  return { builtins, modules, code };
}

describe('the browser bundle', () => {
  it('no node: import (or other Node built-in) reaches it, through @orca/wire or anything else', async () => {
    const report = await inspectBundle();
    expect(report.error).toBeUndefined();
    expect(report.builtins).toEqual([]);
    // The graph really holds wire's client paths (from source), so the check covers them.
    const wire = report.modules.filter((id) => id.includes('/packages/wire/src/')).map((id) => id.split('/src/')[1]);
    expect(wire).toEqual(
      expect.arrayContaining(['rpc/envelope.ts', 'terminal-stream/client.ts', 'terminal-stream/frame.ts']),
    );
    expect(report.code).not.toMatch(/__vite-browser-external|["']node:[a-z]/);
  }, 120_000);

  it('catches an entry that imports a Node built-in', async () => {
    const report = await inspectBundle(join(root, 'src', 'fixtures', 'imports-node.ts'));
    expect(report.builtins).toEqual([
      { source: 'node:path', importer: join(root, 'src', 'fixtures', 'imports-node.ts') },
    ]);
  }, 120_000);
});
