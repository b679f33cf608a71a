import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relayPackageVersion } from './version.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const builtCli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const noBuild = existsSync(builtCli) ? null : `${builtCli} is not built (run pnpm build)`;
if (noBuild) console.log(`skipping the built CLI's --version: ${noBuild}`);

describe('orca-relay --version', () => {
  it('is the package.json version when run from source', () => {
    expect(relayPackageVersion()).toBe(manifest.version);
  });

  it.skipIf(noBuild !== null)('the built CLI prints the package.json version (inlined at build time)', () => {
    const run = spawnSync(process.execPath, [builtCli, '--version'], { encoding: 'utf8' });
    // Why: the relay answers --version with the JSON its manager parses; the package version leads it.
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout) as { name: string; version: string };
    expect(answer.name).toBe('orca-relay');
    expect(answer.version.split('+')[0]).toBe(manifest.version);
  });
});
