import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureCase, parseFixture } from '../src/fixtures/format.ts';

/** The package directory. */
export const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every `fixtures/<group>/<name>.fixture`, as `[group/name, case]`, sorted. */
export function loadCorpus(): [string, FixtureCase][] {
  const dir = join(packageDir, 'fixtures');
  const out: [string, FixtureCase][] = [];
  for (const group of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, group)).sort()) {
      if (!file.endsWith('.fixture')) continue;
      const name = `${group}/${basename(file, '.fixture')}`;
      try {
        out.push([name, parseFixture(readFileSync(join(dir, group, file), 'utf8'))]);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    }
  }
  return out;
}
