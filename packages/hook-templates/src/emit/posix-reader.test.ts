import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { runProcess } from '../../test/support/run.ts';
import { BOUNDED_READER_PY } from './posix-reader.ts';

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

/** A project directory whose `select.py`, `codecs.py` and `os.py` each leave a marker when imported. */
function poisonedProject(): { dir: string; marker: string } {
  const dir = tempDir('orca-ht-poisoned-');
  const marker = join(dir, 'ran');
  for (const mod of ['select', 'codecs', 'os']) {
    writeFileSync(join(dir, `${mod}.py`), `open(${JSON.stringify(marker)}, "a").write("${mod}\\n")\n`);
  }
  return { dir, marker };
}

describe('the bounded reader never imports from the hook’s working directory', () => {
  const project = poisonedProject();
  // Why: Debian builds `select` into its python3, so only a Python that loads it from a file
  // (pyenv's here and in CI) shows the hole; the probe proves the chosen one would run the file.
  const exposed = pythons().find((py) => {
    execFileSync(py, ['-c', 'import select'], { cwd: project.dir });
    const hit = existsSync(project.marker);
    if (hit) execFileSync('rm', ['-f', project.marker]);
    return hit;
  });

  it('a select.py in the project is not run, and the value still comes through', async (ctx) => {
    if (exposed === undefined) {
      console.warn('[hook-templates] skipping: no Python here imports select from a file (Debian builds it in)');
      ctx.skip();
      return;
    }
    const value = '{"hook_event_name":"Stop","n":[1,{"a":"]"}]}';
    const r = await runProcess([exposed, '-c', BOUNDED_READER_PY], {
      env: { PATH: '/usr/bin:/bin' },
      cwd: project.dir,
      input: value,
    });
    expect({ code: r.code, stdout: r.stdout, ran: existsSync(project.marker) }).toEqual({
      code: 0,
      stdout: value,
      ran: false,
    });
  });
});
