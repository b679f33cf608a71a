import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from './package-version.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const builtCli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const noBuild = existsSync(builtCli) ? null : `${builtCli} is not built (run pnpm build)`;
if (noBuild) console.log(`skipping the built CLI's --version: ${noBuild}`);

describe('orca-status --version', () => {
  it('is the package.json version when run from source', () => {
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });

  it.skipIf(noBuild !== null)('the built CLI prints the package.json version (inlined at build time)', () => {
    const run = spawnSync(process.execPath, [builtCli, '--version'], { encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: `${manifest.version}\n` });
  });
});
