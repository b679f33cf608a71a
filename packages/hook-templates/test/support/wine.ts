import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './fixtures.ts';
import { findBinary } from './shells.ts';

/** A usable wine prefix with recording curl.exe / more.com stand-ins, or the reason there is none. */
export type WineSetup = { ok: true; env: Record<string, string>; system32: string } | { ok: false; reason: string };

const WINE_ENV = { WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };

/**
 * Prepares wine: `$WINEPREFIX` if set, else a shared prefix under /tmp created with the headless
 * recipe (TOOLING.md §4); compiles the stand-ins with mingw-w64 and copies them into System32.
 */
export function prepareWine(): WineSetup {
  if (!findBinary('wine') || !findBinary('wineboot'))
    return { ok: false, reason: 'wine not installed (CI installs wine)' };
  const gcc = findBinary('x86_64-w64-mingw32-gcc');
  if (!gcc) return { ok: false, reason: 'x86_64-w64-mingw32-gcc missing: cannot build curl.exe/more.com stand-ins' };
  const prefix = process.env.WINEPREFIX || '/tmp/hooktpl-wineprefix';
  const env = {
    ...WINE_ENV,
    WINEPREFIX: prefix,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
  };
  try {
    if (!existsSync(join(prefix, 'system.reg'))) {
      mkdirSync(prefix, { recursive: true });
      execFileSync('wineboot', ['--init'], { env, stdio: 'ignore', timeout: 120_000 });
    }
    const system32 = join(prefix, 'drive_c', 'windows', 'system32');
    const src = fileURLToPath(new URL('../wine/', import.meta.url));
    const out = tempDir('hooktpl-standins-');
    execFileSync(gcc, ['-O2', '-o', join(out, 'curl.exe'), join(src, 'curl-standin.c')]);
    execFileSync(gcc, ['-O2', '-o', join(out, 'more.com'), join(src, 'more-standin.c')]);
    for (const name of ['curl.exe', 'more.com']) {
      const target = join(system32, name);
      if (!existsSync(target) || !readFileSync(target).equals(readFileSync(join(out, name))))
        copyFileSync(join(out, name), target);
    }
    try {
      // Why: a persistent wineserver makes each `wine cmd` start faster; already running is fine.
      execFileSync('wineserver', ['-p', '120'], { env, stdio: 'ignore' });
    } catch {
      // best effort
    }
    return { ok: true, env, system32 };
  } catch (e) {
    return { ok: false, reason: `wine prefix setup failed: ${String(e).slice(0, 200)}` };
  }
}

/** Windows path of a Unix path inside the prefix's Z: drive. */
export function winPath(unixPath: string): string {
  return `Z:${unixPath.replaceAll('/', '\\')}`;
}
