import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.ts';
import { evaluateFixture } from '../src/fixtures/evaluate.ts';
import { type FixtureCase, fixtureArgv, pickExpected } from '../src/fixtures/format.ts';
import { loadCorpus, packageDir } from './load-corpus.ts';

const corpus = loadCorpus();
const scratch = mkdtempSync(join(tmpdir(), 'orca-status-corpus-'));

function writeInputs(name: string, c: FixtureCase): { tail: string; screen?: string; rows?: string } {
  const stem = join(scratch, name.replace(/\//g, '__'));
  const files: { tail: string; screen?: string; rows?: string } = { tail: `${stem}.tail` };
  writeFileSync(files.tail, c.tail);
  if (c.screen !== undefined) {
    files.screen = `${stem}.screen`;
    writeFileSync(files.screen, c.screen);
  }
  if (c.evidence.rows !== undefined) {
    files.rows = `${stem}.rows.json`;
    writeFileSync(files.rows, JSON.stringify(c.evidence.rows));
  }
  return files;
}

async function viaLibrary(c: FixtureCase): Promise<Record<string, unknown>> {
  return evaluateFixture(c);
}

async function viaCli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    readFile: async (p) => readFileSync(p, 'utf8'),
    readStdin: async () => '',
  });
  return { code, out, err };
}

describe('fixture corpus', () => {
  it('is not empty and every case has a reason', () => {
    expect(corpus.length).toBeGreaterThan(40);
    for (const [, c] of corpus) expect(c.why.length).toBeGreaterThan(10);
  });

  for (const [name, c] of corpus) {
    it(`${name}: library`, async () => {
      const actual = await viaLibrary(c);
      expect(pickExpected(actual, c.expect), c.why).toStrictEqual(c.expect);
    });
    it(`${name}: orca-status classify --json --all`, async () => {
      const { code, out, err } = await viaCli(fixtureArgv(c, writeInputs(name, c)));
      expect(err).toBe('');
      expect(code).toBe(0);
      const actual = JSON.parse(out) as Record<string, unknown>;
      expect(pickExpected(actual, c.expect), c.why).toStrictEqual(c.expect);
    });
  }
});

describe('orca-status as a real process', () => {
  const run = promisify(execFile);
  // One case per group, so the bin's own wiring (shebang entry, stdout, exit code) is exercised.
  const sample = [...new Map(corpus.map(([name, c]) => [name.split('/')[0], [name, c] as const])).values()].slice(0, 3);
  for (const [name, c] of sample) {
    it(`${name} through node src/cli.ts`, async () => {
      const argv = fixtureArgv(c, writeInputs(`proc-${name}`, c));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(packageDir, 'src/cli.ts'), ...argv], {
        cwd: packageDir,
      });
      expect(pickExpected(JSON.parse(stdout) as Record<string, unknown>, c.expect)).toStrictEqual(c.expect);
    });
  }

  it('exits 2 with one stderr line on a usage error', async () => {
    const err = await run(process.execPath, ['--import', 'tsx', join(packageDir, 'src/cli.ts'), 'classify', '--json'], {
      cwd: packageDir,
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in err ? err.code : 0).toBe(2);
    expect('stderr' in err ? err.stderr.trim().split('\n') : []).toEqual([
      "orca-status: required option '--tail <file>' not specified",
    ]);
  });
});
