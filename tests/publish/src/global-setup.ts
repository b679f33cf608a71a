import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtFiles, publicPackages, WORKSPACE_ROOT } from './public-packages.ts';

/**
 * Builds each public package whose `dist/` lacks a published file (a fresh clone, or this suite
 * run on its own). Under `pnpm test` turbo has built them already (`^build`), so nothing runs.
 * Why not always rebuild: other suites may be running the built CLIs at the same moment, and a
 * rebuild (tsup `clean: true`) would pull `dist/` from under them. A stale but complete `dist/`
 * is the developer's to refresh with `pnpm build`.
 */
export default function setup(): void {
  for (const pkg of publicPackages()) {
    const missing = builtFiles(pkg).filter((file) => !fs.existsSync(file));
    if (missing.length === 0) continue;
    console.log(`building ${pkg.manifest.name}: ${missing.length} published file(s) missing`);
    const run = spawnSync('pnpm', ['--filter', pkg.manifest.name, 'run', 'build'], {
      cwd: WORKSPACE_ROOT,
      encoding: 'utf8',
    });
    if (run.status !== 0) {
      throw new Error(`build of ${pkg.manifest.name} failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    }
  }
}
