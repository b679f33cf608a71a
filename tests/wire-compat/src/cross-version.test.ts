import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import currentPackage from '@orca/wire/package.json' with { type: 'json' };
import * as current from '@orca/wire/terminal-stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_ENV, extractBaseline, findBaseline, findBaselines, repoRootDir, sourceEntry } from './baseline.ts';
import { type JourneyResult, runJourney, type WireBuild } from './journey.ts';

const cur: WireBuild = { label: 'cur', version: currentPackage.version, mod: current };
const root = repoRootDir();
// Why: a missing baseline must fail the run loudly (CI has full history), never skip it; this
// throws at collection time, which fails the file.
const baselines = findBaselines(root);

/** client build's defaultRequest('desktop') ∩ host build's CAPABILITIES, closed under prerequisites. */
function expectedGrant(client: WireBuild, host: WireBuild): string[] {
  const table = host.mod.CAPABILITIES as Record<string, { requires: readonly string[] }>;
  let set = Object.keys(client.mod.defaultRequest('desktop')).filter((n) => n in table);
  for (;;) {
    const next = set.filter((n) => (table[n]?.requires ?? []).every((r) => set.includes(r)));
    if (next.length === set.length) return next.sort();
    set = next;
  }
}

function expectedFrames(grant: string[]): string[] {
  const snapshot = ['H>C SnapshotStart', 'H>C SnapshotChunk', 'H>C SnapshotEnd'];
  const pause = grant.includes('outputPause') ? ['C>H SetOutputPaused', 'C>H SetOutputPaused'] : [];
  return [
    'C>H Subscribe',
    ...snapshot,
    'C>H Input',
    'H>C Output',
    ...pause,
    'C>H SnapshotRequest',
    ...snapshot,
    'C>H Subscribe',
    ...snapshot,
    'C>H Input',
    'H>C Output',
    'C>H Unsubscribe',
  ];
}

const ALL_STEPS = [
  'subscribed',
  'rendered: initial snapshot',
  'render matches: initial snapshot',
  'input reaches PTY',
  'output arrives',
  'rendered: first output',
  'render matches: first output',
  'acks cover output: first connection',
  'reveal snapshot',
  'rendered: reveal',
  'render matches: reveal',
  'dropped',
  'resubscribed',
  'rendered: reconnect snapshot',
  'render matches: reconnect snapshot',
  'second input reaches PTY',
  'second output arrives',
  'rendered: second output',
  'render matches: second output',
  'acks cover output: second connection',
  'unsubscribed',
];

function assertJourney(r: JourneyResult, client: WireBuild, host: WireBuild): void {
  const grant = expectedGrant(client, host);
  expect(r.stalledAt).toBeUndefined();
  expect(r.steps).toEqual(ALL_STEPS);
  expect(r.frames).toEqual(expectedFrames(grant));
  expect(r.echoes).toEqual([grant, grant]);
  expect(r.clientGrants).toEqual([grant, grant]);
  expect(r.events.filter((e) => e.type === 'subscribed')).toHaveLength(2);
  expect(r.snapshotStarts).toHaveLength(3);
  for (const start of r.snapshotStarts) expect(start).toMatchObject({ kind: 'scrollback', cols: 120, rows: 40 });
  expect(r.hostRejects.map((s) => s.rejected)).toEqual([0, 0]);
  expect(r.clientStats.rejected).toBe(0);
  expect(r.clientErrors).toEqual([]);
  expect(r.clientStats.errors).toEqual([]);
  expect(r.missingBackend).toEqual([]);
  expect(r.ptyInputs).toEqual(['echo one\r', 'echo two\r']);
  for (const render of r.renders) expect(render.rendered).toBe(render.expected);
  expect(r.renders.at(-1)?.rendered).toBe('$ echo one\none\n$ echo two\ntwo\n$ ');
  expect(r.pausedResults).toEqual(grant.includes('outputPause') ? [true, true] : [false, false]);
  if (grant.includes('ackOutput')) expect(r.ack.ackedBytes).toBeGreaterThan(0);
}

for (const baseline of baselines) {
  describe(`cross-version terminal journey against ${baseline.version} (${baseline.commit.slice(0, 12)}, ${baseline.source})`, () => {
    let old: WireBuild;
    const results = new Map<string, JourneyResult>();

    beforeAll(async () => {
      const dir = extractBaseline(root, baseline.commit);
      const mod = (await import(sourceEntry(dir, './terminal-stream'))) as typeof current;
      old = { label: `old@${baseline.version}`, version: baseline.version, mod };
      console.log(
        `wire-compat: baseline ${baseline.version} at ${baseline.commit.slice(0, 12)} (${baseline.source}); current ${cur.version}`,
      );
    });

    it('same-version pairing cur/cur', async () => {
      const r = await runJourney(cur, cur);
      results.set('cur/cur', r);
      assertJourney(r, cur, cur);
    });

    it('same-version pairing old/old', async () => {
      const r = await runJourney(old, old);
      results.set('old/old', r);
      assertJourney(r, old, old);
    });

    it('old client ↔ new host: SnapshotStarts equal the new host’s same-version pairing', async () => {
      const r = await runJourney(old, cur);
      assertJourney(r, old, cur);
      expect(r.snapshotStarts).toEqual(results.get('cur/cur')?.snapshotStarts);
    });

    it('new client ↔ old host: SnapshotStarts equal the old host’s same-version pairing', async () => {
      const r = await runJourney(cur, old);
      assertJourney(r, cur, old);
      expect(r.snapshotStarts).toEqual(results.get('old/old')?.snapshotStarts);
    });

    it('the baseline is a real release with the harness-facing API', () => {
      expect(baseline.version).toMatch(/^\d+\.\d+\.\d+$/);
      for (const name of [
        'createTerminalHost',
        'createTerminalClient',
        'createFrameDecoder',
        'defaultRequest',
      ] as const) {
        expect(typeof old.mod[name]).toBe('function');
      }
      expect(typeof old.mod.OPCODE_INFO).toBe('object');
      expect(typeof old.mod.CAPABILITIES).toBe('object');
    });
  });
}

describe('negative control', () => {
  it('a host decoder lacking Input stalls at the input barrier with a reject for 7', async () => {
    const opcodes = [...current.KNOWN_OPCODES].filter((o) => o !== current.Opcode.Input);
    const r = await runJourney(cur, cur, { barrierMs: 1_500, hostOpcodes: opcodes });
    expect(r.stalledAt).toBe('input reaches PTY');
    expect(r.ptyInputs).toEqual([]);
    expect(r.hostRejects[0]).toMatchObject({
      rejected: 1,
      byReason: { 'unknown-opcode': 1 },
      unknownOpcodes: { 7: 1 },
    });
  });
});

describe('baseline discovery', () => {
  function repo(): string {
    const dir = mkdtempSync(join(tmpdir(), 'wire-compat-'));
    const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q');
    g('config', 'user.email', 't@example.invalid');
    g('config', 'user.name', 't');
    mkdirSync(join(dir, 'packages/wire'), { recursive: true });
    return dir;
  }
  const commit = (dir: string, version: string, msg: string) => {
    writeFileSync(join(dir, 'packages/wire/package.json'), JSON.stringify({ name: '@orca/wire', version }));
    writeFileSync(join(dir, 'packages/wire/x.ts'), `export const v = '${msg}';\n`);
    execFileSync('git', ['add', '.'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', msg], { cwd: dir });
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  };

  it('throws naming the env var when history has no release (never skips)', () => {
    const dir = repo();
    commit(dir, '0.0.0', 'skeleton');
    expect(() => findBaseline(dir, {})).toThrow(BASELINE_ENV);
    rmSync(dir, { recursive: true, force: true });
  });

  it('picks the newest release commit, skipping one whose tree equals the working tree; honours the env var', () => {
    const dir = repo();
    commit(dir, '0.0.0', 'skeleton');
    const r1 = commit(dir, '0.1.0', 'release 1');
    commit(dir, '0.1.0', 'work after release 1');
    const r2 = commit(dir, '0.2.0', 'release 2');
    expect(findBaseline(dir, {})).toEqual({ commit: r1, version: '0.1.0', source: 'history' });
    commit(dir, '0.2.0', 'work after release 2');
    expect(findBaseline(dir, {})).toEqual({ commit: r2, version: '0.2.0', source: 'history' });
    expect(findBaselines(dir, {}).map((b) => b.version)).toEqual(['0.2.0', '0.1.0']);
    expect(findBaseline(dir, { [BASELINE_ENV]: r1 })).toEqual({ commit: r1, version: '0.1.0', source: 'env' });
    expect(() => findBaseline(dir, { [BASELINE_ENV]: 'nope' })).toThrow(BASELINE_ENV);
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the run when an old build’s relative import leaves its cache dir', () => {
    const dir = repo();
    commit(dir, '0.1.0', 'release');
    mkdirSync(join(dir, 'packages/wire/src'), { recursive: true });
    writeFileSync(join(dir, 'packages/wire/src/index.ts'), "export * from '../../../../outside.ts';\n");
    execFileSync('git', ['add', '.'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', 'escape'], { cwd: dir });
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const cache = mkdtempSync(join(tmpdir(), 'wire-compat-cache-'));
    expect(() => extractBaseline(dir, head, cache)).toThrow(/resolves outside its cache dir/);
    rmSync(dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });
});
