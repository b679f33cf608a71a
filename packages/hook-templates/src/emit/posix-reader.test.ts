import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { runProcess } from '../../test/support/run.ts';
import { AGENT_IDS } from '../agents/sources.ts';
import { planFor } from '../plan/plan-for.ts';
import { BOUNDED_READER_PY, BOUNDED_READER_PY_FLAGS } from './posix-reader.ts';
import { emitScript } from './script.ts';

/** Every Python 3 this machine has: PATH's, Debian's, pyenv's versions. */
function pythons(): string[] {
  const found = new Set<string>();
  const add = (argv0: string) => {
    try {
      const exe = execFileSync(argv0, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
      if (exe !== '') found.add(exe);
    } catch {
      // not installed
    }
  };
  add('python3');
  add('/usr/bin/python3');
  const pyenv = join(homedir(), '.pyenv', 'versions');
  if (existsSync(pyenv)) for (const v of readdirSync(pyenv)) add(join(pyenv, v, 'bin', 'python3'));
  return [...found];
}

/** A project directory whose `select.py` leaves a marker when imported. */
function poisonedProject(): { dir: string; marker: string } {
  const dir = realpathSync(tempDir('orca-ht-poisoned-'));
  const marker = join(dir, 'ran');
  writeFileSync(join(dir, 'select.py'), `open(${JSON.stringify(marker)}, "a").write("select\\n")\n`);
  return { dir, marker };
}

// Why: an empty PYTHONPATH entry (`PYTHONPATH=$PYTHONPATH:/x` with it unset) is the working directory.
const HOSTILE_ENV = { PATH: '/usr/bin:/bin', PYTHONPATH: ':/nonexistent' };
const readerArgv = (python: string) => [python, BOUNDED_READER_PY_FLAGS, '-c', BOUNDED_READER_PY];

describe('the bounded reader never imports from the hook’s working directory', () => {
  const project = poisonedProject();
  const all = pythons();

  it('every python3 here runs it with neither the directory nor PYTHONPATH on sys.path', () => {
    expect(all.length).toBeGreaterThan(0);
    const probe =
      'import os, sys; print(sorted({os.path.realpath(p or ".") for p in sys.path} & {os.getcwd(), "/nonexistent"}))';
    for (const python of all) {
      const seen = execFileSync(python, [BOUNDED_READER_PY_FLAGS, '-c', probe], {
        cwd: project.dir,
        env: HOSTILE_ENV,
        encoding: 'utf8',
      }).trim();
      expect({ python, seen }).toEqual({ python, seen: '[]' });
    }
  });

  it('every python3 here runs it without site (no .pth of any installed package read per hook)', () => {
    for (const python of all) {
      const seen = execFileSync(python, [BOUNDED_READER_PY_FLAGS, '-c', 'import sys; print("site" in sys.modules)'], {
        cwd: project.dir,
        env: HOSTILE_ENV,
        encoding: 'utf8',
      }).trim();
      expect({ python, seen }).toEqual({ python, seen: 'False' });
    }
  });

  it('every POSIX script that holds the reader runs each of its Pythons with those flags', () => {
    const legs = [
      `command -p python3 ${BOUNDED_READER_PY_FLAGS} -c "$orca_reader"`,
      `command -p python ${BOUNDED_READER_PY_FLAGS} -c "$orca_reader"`,
    ];
    const readers = AGENT_IDS.map((agent) => emitScript(planFor(agent, { os: 'posix', dialect: 'sh' })))
      .map((script) => script.match(/command -p python3?\b[^|]*-c "\$orca_reader"/g) ?? [])
      .filter((runs) => runs.length > 0);
    expect(readers.length).toBeGreaterThan(0);
    for (const runs of readers) expect(runs).toEqual(legs);
  });

  it('a select.py in the project is not run on a Python that would run it, and the value comes through', async (ctx) => {
    // Why: Debian builds `select` into its python3; only a Python that loads it from a file
    // (pyenv's) shows the hole, and the probe proves the chosen one would run the file.
    const exposed = all.find((python) => {
      execFileSync(python, ['-c', 'import select'], { cwd: project.dir, env: HOSTILE_ENV });
      const hit = existsSync(project.marker);
      rmSync(project.marker, { force: true });
      return hit;
    });
    if (exposed === undefined) {
      console.warn(`[hook-templates] skipping: none of ${all.join(', ')} imports select from a file`);
      ctx.skip();
      return;
    }
    const value = '{"hook_event_name":"Stop","n":[1,{"a":"]"}]}';
    const r = await runProcess(readerArgv(exposed), { env: HOSTILE_ENV, cwd: project.dir, input: value });
    expect({ code: r.code, stdout: r.stdout, ran: existsSync(project.marker) }).toEqual({
      code: 0,
      stdout: value,
      ran: false,
    });
  });
});
