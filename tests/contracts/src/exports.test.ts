import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const libraries = ['wire', 'hook-templates', 'agent-status', 'command-hooks', 'relay'];

describe('every library export resolves to source that loads', () => {
  for (const dir of libraries) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'packages', dir, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries<Record<string, string> | string>(manifest.exports)) {
      if (subpath === './package.json' || typeof target === 'string') continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      it(`${specifier} exports at least one binding`, async () => {
        expect(target['orca-source'] && fs.existsSync(path.join(root, 'packages', dir, target['orca-source']))).toBe(
          true,
        );
        const mod = await import(/* @vite-ignore */ specifier);
        expect(Object.keys(mod).length).toBeGreaterThan(0);
      });
    }
  }
});
