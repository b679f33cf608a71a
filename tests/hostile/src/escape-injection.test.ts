import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileHost, runOrca, startHostileHost, tempRoot, until } from './real-host.ts';

// The attack: a directory whose name carries an OSC title set, a BEL and a screen clear, plus a
// C1 CSI (U+009B) and DEL. Running `orca status` in a pane's cwd like this must not write any of
// them into the user's terminal.
const EVIL_NAME = 'evil\x1b]0;PWNED\x07\x1b[2J\u009b2J\x7f';
const ESCAPED_NAME = 'evil\\x1b]0;PWNED\\x07\\x1b[2J\\u009b2J\\x7f';
// C0 except the newline a formatter emits itself, C1, DEL.
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let host: HostileHost;
let dataDir: string;
let evilDir: string;
let handle: string;
let titled: string;

beforeAll(async () => {
  const root = tempRoot('orca-hostile-escape-');
  dataDir = join(root, 'data');
  evilDir = join(root, EVIL_NAME);
  mkdirSync(evilDir);
  host = await startHostileHost(dataDir);
  const run = await runOrca(['--data-dir', dataDir, 'run', '--name', `n${EVIL_NAME}`, '--cwd', evilDir, '--', 'cat']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  handle = run.stdout.trim();
  // A second pane whose program sets a title carrying DEL.
  const setsTitle = await runOrca([
    '--data-dir',
    dataDir,
    'run',
    '--cwd',
    evilDir,
    '--',
    'sh',
    '-c',
    "printf '\\033]0;ti\\177tle\\007'; exec cat",
  ]);
  expect(setsTitle).toMatchObject({ code: 0, stderr: '' });
  titled = setsTitle.stdout.trim();
  await until('both panes are listed, one with its title', async () => {
    const ls = await runOrca(['--json', '--data-dir', dataDir, 'ls']);
    const { panes } = JSON.parse(ls.stdout) as { panes: { handle: string; title: string | null }[] };
    return panes.some((p) => p.handle === handle) && panes.some((p) => p.handle === titled && p.title)
      ? true
      : undefined;
  });
}, 120_000);

afterAll(async () => {
  await host?.stop();
});

describe('escape injection through a pane cwd', () => {
  for (const args of [['status'], ['ls'], ['terminal', 'show', '<handle>']]) {
    it(`orca ${args.join(' ')} prints the evil cwd escaped, with no ESC, BEL, C1 or DEL`, async () => {
      const run = await runOrca(['--data-dir', dataDir, ...args.map((a) => (a === '<handle>' ? handle : a))]);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(UNPRINTABLE);
      expect(run.stderr).not.toMatch(UNPRINTABLE);
      expect(run.stdout).toContain(evilDir.replace(EVIL_NAME, ESCAPED_NAME));
    });
  }

  it('orca status prints a title carrying DEL escaped', async () => {
    const run = await runOrca(['--data-dir', dataDir, 'status']);
    expect(run.stdout).not.toMatch(UNPRINTABLE);
    expect(run.stdout.split('\n').find((l) => l.startsWith(titled))).toContain('ti\\x7ftle');
  });

  it('orca --json ls keeps the exact cwd but writes no C0, C1 or DEL byte', async () => {
    const run = await runOrca(['--json', '--data-dir', dataDir, 'ls']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd()).not.toMatch(UNPRINTABLE);
    const { panes } = JSON.parse(run.stdout) as { panes: { handle: string; cwd: string }[] };
    expect(panes.find((p) => p.handle === handle)?.cwd).toBe(evilDir);
  });

  it('an error that quotes hostile input prints it escaped', async () => {
    const run = await runOrca(['--data-dir', dataDir, 'terminal', 'show', `pane-${EVIL_NAME}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(UNPRINTABLE);
    expect(run.stdout).not.toMatch(UNPRINTABLE);
  });
});
