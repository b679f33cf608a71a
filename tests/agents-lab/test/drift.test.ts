import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFixture } from '@orca/agent-status/fixtures';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAgentBinary } from '../src/agents/binaries.ts';
import { DriftError } from '../src/drift/drift-error.ts';
import { formatDrift } from '../src/drift/drift-report.ts';
import { compareTour, drifted, driftOf } from '../src/drift/drift-run.ts';
import { installRelease } from '../src/drift/install.ts';
import { latestRelease, parseReleaseName } from '../src/drift/registry.ts';
import { normaliseScreenLine, screenDrift } from '../src/drift/screen-drift.ts';
import { REAL_FIXTURES_DIR } from '../src/harness/fixture-writer.ts';
import type { TourMoment, TourReport } from '../src/scenarios/run-tour.ts';

const temps: string[] = [];
const temp = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orca-drift-test-'));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes a package `pkg@version` with one bin into the npm prefix `dir` (what `npm i --prefix` leaves). */
function fakeInstall(dir: string, pkg: string, version: string, bin = 'cli.js'): void {
  const pkgDir = path.join(dir, 'node_modules', pkg);
  fs.mkdirSync(pkgDir, { recursive: true });
  fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: pkg, version, bin: { qwen: bin } }));
  fs.writeFileSync(path.join(pkgDir, bin), '');
}

const pinnedQwen = (moment: string): string[] =>
  (
    parseFixture(fs.readFileSync(path.join(REAL_FIXTURES_DIR, `qwen-0.24.4-${moment}.fixture`), 'utf8')).screen ?? ''
  ).split('\n');

function moment(name: string, screen: readonly string[] | null, failures: string[] = []): TourMoment {
  return {
    name,
    ok: failures.length === 0,
    judged: 9,
    detectMs: 0,
    failures,
    capture: screen ? { screen, tail: '', title: null, evidence: { now: 1000 } } : null,
    fixture: null,
  };
}

function report(version: string, moments: TourMoment[]): TourReport {
  return { build: 'qwen', agent: 'qwen', version, installedVersion: version, hookEvents: ['Stop'], moments };
}

describe('screen drift', () => {
  it('what differs between two runs of one release is no change (temp dir, version, spinner, counters)', () => {
    const pinned = pinnedQwen('permission-shell');
    const rerun = pinned.map((l) =>
      l.replace('⠏', '⠋').replace('/tmp/orca-lab-qwen-78v9Xa', '/tmp/orca-lab-qwen-Zz91Qa').replace('(37)', '(12)'),
    );
    expect(screenDrift(pinned, rerun)).toEqual({ added: [], removed: [] });
    expect(normaliseScreenLine('│ 2. Trust parent folder (orca-lab-gemini-tXcJXZ) │')).toBe(
      normaliseScreenLine('│ 2. Trust parent folder (orca-lab-gemini-K367XJ) │'),
    );
    expect(normaliseScreenLine('  ⠏ Waiting for user confirmation... (3s)')).toBe(
      normaliseScreenLine('⠙ Waiting for user confirmation... (12s)  '),
    );
  });

  it('a menu option renamed is a row added and a row removed; a row moving is no change', () => {
    const pinned = pinnedQwen('permission-shell');
    const renamed = pinned.map((l) => l.replace('No, suggest changes (esc)', 'Deny (esc)'));
    const d = screenDrift(pinned, renamed);
    expect(d.added).toEqual(['     4. Deny (esc)']);
    expect(d.removed).toEqual(['     4. No, suggest changes (esc)']);
    expect(screenDrift(pinned, [...pinned].reverse())).toEqual({ added: [], removed: [] });
  });
});

describe('registry answers', () => {
  it('reads the latest release from npm view', async () => {
    const asked: string[][] = [];
    const version = await latestRelease('@qwen-code/qwen-code', async (args) => {
      asked.push([...args]);
      return '"0.25.1"\n';
    });
    expect(version).toBe('0.25.1');
    expect(asked).toEqual([['view', '@qwen-code/qwen-code', 'dist-tags.latest', '--json']]);
  });

  it('any bytes from npm give a release or a DriftError, never another throw (a path never names a directory)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.constant('"../../etc"')), async (out) => {
        try {
          const v = await latestRelease('x', async () => out);
          expect(v).toMatch(/^\d+\.\d+\.\d+/);
          expect(v).not.toContain('/');
        } catch (error) {
          expect(error).toBeInstanceOf(DriftError);
          expect((error as DriftError).code).toBe('registry_bad_answer');
        }
      }),
    );
    expect(() => parseReleaseName('latest')).toThrow(DriftError);
    expect(parseReleaseName('1.2.3-beta.1')).toBe('1.2.3-beta.1');
  });
});

describe('installing a release', () => {
  it('installs once into its own prefix and reuses it; npm leaving another version is an error', async () => {
    const root = temp();
    let calls = 0;
    const npm = async (args: readonly string[]): Promise<string> => {
      calls += 1;
      const prefix = args[args.indexOf('--prefix') + 1] as string;
      expect(args).toContain('--ignore-scripts');
      fakeInstall(prefix, '@qwen-code/qwen-code', String(args.at(-1)).split('@').at(-1) as string);
      return '';
    };
    const dir = await installRelease('@qwen-code/qwen-code', '0.25.1', root, npm);
    expect(dir).toBe(path.join(root, '@qwen-code+qwen-code@0.25.1'));
    expect(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).toContain('private');
    await installRelease('@qwen-code/qwen-code', '0.25.1', root, npm);
    expect(calls).toBe(1);
    await expect(
      installRelease('@qwen-code/qwen-code', '0.26.0', root, async (args) => {
        fakeInstall(args[args.indexOf('--prefix') + 1] as string, '@qwen-code/qwen-code', '0.25.9');
        return '';
      }),
    ).rejects.toMatchObject({ code: 'install_failed' });
  });

  it('the lab resolves a build from a drift prefix instead of its pin', () => {
    const prefix = temp();
    fakeInstall(prefix, '@qwen-code/qwen-code', '9.9.9', 'cli-entry.js');
    const binary = resolveAgentBinary('qwen', prefix);
    expect(binary.version).toBe('9.9.9');
    expect(binary.target).toBe(path.join(prefix, 'node_modules', '@qwen-code/qwen-code', 'cli-entry.js'));
    expect(resolveAgentBinary('qwen').version).toBe('0.24.4');
  });
});

describe('a release against the pin', () => {
  it('reports a failed moment, a changed screen and a moment that never came; an unchanged release holds', () => {
    const menu = pinnedQwen('permission-shell').map((l) => l.replace('No, suggest changes (esc)', 'Deny (esc)'));
    const broken = report('0.25.1', [
      moment('idle', pinnedQwen('idle')),
      moment('permission-shell', menu, ['status idle, expected permission']),
    ]);
    const compared = compareTour(broken, '0.24.4', REAL_FIXTURES_DIR);
    expect(compared.moments[0]?.screen).toEqual({ added: [], removed: [] });
    expect(compared.moments[1]?.screen?.added).toEqual(['     4. Deny (esc)']);
    expect(compared.missingMoments).toEqual(
      expect.arrayContaining(['api-error', 'cancelled', 'permission-edit', 'startup-trust', 'working-stream']),
    );
    expect(compared.missingMoments).not.toContain('idle');
  });

  it('drift tours the newest release, and tours nothing when it is the pin', async () => {
    const root = temp();
    const npm = async (args: readonly string[]): Promise<string> => {
      if (args[0] === 'view') return '"0.25.1"';
      fakeInstall(args[args.indexOf('--prefix') + 1] as string, '@qwen-code/qwen-code', '0.25.1');
      return '';
    };
    const toured: string[] = [];
    const tour = async (build: string, dir: string): Promise<TourReport> => {
      toured.push(`${build} ${resolveAgentBinary('qwen', dir).version}`);
      return report('0.25.1', [moment('idle', pinnedQwen('idle'), ['title "Qwen" named no state'])]);
    };
    const result = await driftOf('qwen', { npm, cacheRoot: root, tour });
    expect(toured).toEqual(['qwen 0.25.1']);
    expect(result).toMatchObject({ state: 'toured', pinned: '0.24.4', release: '0.25.1' });
    expect(drifted(result)).toBe(true);
    const text = formatDrift([result]);
    expect(text).toContain('pinned 0.24.4 → release 0.25.1');
    expect(text).toContain('FAIL  idle');
    expect(text).toContain('! title "Qwen" named no state');
    expect(text).toContain('MISS  permission-shell');
    expect(text).toContain('DRIFTED');

    const same = await driftOf('qwen', { npm: async () => '"0.24.4"', cacheRoot: root, tour });
    expect(same.state).toBe('same');
    expect(drifted(same)).toBe(false);
    expect(toured).toHaveLength(1);
  });
});

describe('the drift command', () => {
  const cli = path.resolve(import.meta.dirname, '../src/cli/drift.ts');
  const run = (args: string[]): Promise<{ code: number; out: string; err: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx/esm', '--conditions=orca-source', cli, ...args],
        { cwd: path.resolve(import.meta.dirname, '..') },
        (error, out, err) => resolve({ code: error ? Number(error.code) : 0, out, err }),
      );
    });

  it('--help exits 0; an unknown build or a bad --version exits 2 saying why', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: pnpm --filter @orca/agents-lab drift');
    const unknown = await run(['cursor']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown build cursor; known: claude, codex, gemini, qwen');
    const two = await run(['qwen', 'codex', '--version', '1.0.0']);
    expect(two.code).toBe(2);
    expect(two.err).toContain('--version names one build');
    const bad = await run(['qwen', '--version', '../x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not a release');
  }, 60_000);
});
