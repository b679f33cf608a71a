import { execFile } from 'node:child_process';
import { z } from 'zod';
import { DriftError } from './drift-error.ts';

/** Runs `npm` with `args` and resolves with its stdout (injected in tests). */
export type NpmRunner = (args: readonly string[]) => Promise<string>;

/** How long one `npm view` may take before the registry counts as unreachable (ms). */
export const NPM_VIEW_TIMEOUT_MS = 60_000;

export const runNpm: NpmRunner = (args) =>
  new Promise((resolve, reject) => {
    execFile(
      'npm',
      [...args],
      { timeout: NPM_VIEW_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new DriftError('npm_failed', `npm ${args.join(' ')}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });

// Why: what npm prints is outside bytes; a release name is checked before it names a directory.
const releaseName = z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'not a semver release');

/** The registry's `latest` release of `pkg` (`npm view <pkg> dist-tags.latest --json`). */
export async function latestRelease(pkg: string, npm: NpmRunner = runNpm): Promise<string> {
  const out = await npm(['view', pkg, 'dist-tags.latest', '--json']);
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new DriftError('registry_bad_answer', `npm view ${pkg}: not JSON: ${out.slice(0, 80)}`);
  }
  const version = releaseName.safeParse(parsed);
  if (!version.success) {
    throw new DriftError(
      'registry_bad_answer',
      `npm view ${pkg}: ${JSON.stringify(parsed)?.slice(0, 80)} is not a release`,
    );
  }
  return version.data;
}

/** Checks a release name given on the command line (`--version`). */
export function parseReleaseName(text: string): string {
  const version = releaseName.safeParse(text);
  if (!version.success) throw new DriftError('usage', `--version ${JSON.stringify(text)} is not a release (x.y.z)`);
  return version.data;
}
