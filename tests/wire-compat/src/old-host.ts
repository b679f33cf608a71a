import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HOST_MANIFEST = 'apps/host/package.json';
const RELEASE = /^\d+\.\d+\.\d+$/;
/** The workspace this harness runs in. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function hostVersionAt(rev: string): string | undefined {
  try {
    const v = (JSON.parse(git(['show', `${rev}:${HOST_MANIFEST}`])) as { version?: unknown }).version;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The newest released `@orca/host` in HEAD's history: the newest commit where
 * `apps/host/package.json`'s version is a release differing from its parent's. Null when the
 * history has none (a shallow clone: `git fetch --unshallow`).
 */
export function previousHostRelease(): { commit: string; version: string } | null {
  let log = '';
  try {
    log = git(['log', '--format=%H', '--', HOST_MANIFEST]);
  } catch {
    return null;
  }
  for (const commit of log.split('\n').filter(Boolean)) {
    const version = hostVersionAt(commit);
    if (!version || !RELEASE.test(version) || version === '0.0.0') continue;
    if (hostVersionAt(`${commit}^`) === version) continue;
    return { commit, version };
  }
  return null;
}

/**
 * That release's `orca` CLI, runnable from its source: `apps/host` and `packages/*` of the commit
 * are extracted into `.cache/`, each package gets a `node_modules` whose `@orca/*` entries point
 * at the extracted packages (the old build, not today's) and whose other entries point at the
 * installed copies today's package of the same name resolves (same pinned third-party versions, native
 * modules already built). Returns the CLI entry (run it with tsx and `--conditions=orca-source`).
 */
export function extractOldHost(commit: string): string {
  const dir = join(REPO_ROOT, 'tests', 'wire-compat', '.cache', `old-host-${commit.slice(0, 12)}-v1`);
  const entry = join(dir, 'apps', 'host', 'src', 'cli.ts');
  if (existsSync(join(dir, '.complete'))) return entry;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', commit, 'apps/host', 'packages'], {
    cwd: REPO_ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const packages = ['apps/host', ...readdirSync(join(dir, 'packages')).map((p) => `packages/${p}`)];
  const byName = new Map<string, string>();
  for (const p of packages) {
    const manifest = JSON.parse(readFileSync(join(dir, p, 'package.json'), 'utf8')) as { name: string };
    byName.set(manifest.name, p);
  }
  for (const p of packages) {
    const manifest = JSON.parse(readFileSync(join(dir, p, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      const link = join(dir, p, 'node_modules', dep);
      mkdirSync(dirname(link), { recursive: true });
      const own = byName.get(dep);
      const today = join(REPO_ROOT, p, 'node_modules', dep);
      const target = own ? join(dir, own) : existsSync(today) ? realpathSync(today) : null;
      if (target) symlinkSync(target, link);
    }
  }
  writeFileSync(join(dir, '.complete'), `${commit}\n`);
  return entry;
}
