import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Env var naming an explicit baseline commit/ref. */
export const BASELINE_ENV = 'ORCA_WIRE_BASELINE_REF';
/** Bump when the extraction layout changes, so stale caches are not reused. */
export const CACHE_FORMAT_STAMP = 'v1';
const WIRE_DIR = 'packages/wire';
const RELEASE = /^\d+\.\d+\.\d+$/;

/** A baseline build picked from history. */
export interface Baseline {
  commit: string;
  version: string;
  /** How it was found. */
  source: 'env' | 'history';
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
}

function tryGit(cwd: string, args: string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}

function versionAt(cwd: string, rev: string): string | undefined {
  const text = tryGit(cwd, ['show', `${rev}:${WIRE_DIR}/package.json`]);
  if (text === undefined) return undefined;
  try {
    const v = (JSON.parse(text) as { version?: unknown }).version;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The baseline: `ORCA_WIRE_BASELINE_REF` if set, else the newest commit in HEAD's history whose
 * `packages/wire/package.json` version is a release (not 0.0.0) differing from its parent's,
 * skipping one whose `packages/wire` tree equals the working tree's. Throws (never skips) when none.
 */
export function findBaseline(repoRoot: string, env: NodeJS.ProcessEnv = process.env): Baseline {
  const [first] = findBaselines(repoRoot, env, 1);
  if (!first) throw new Error('unreachable: findBaselines returns at least one baseline or throws');
  return first;
}

/**
 * {@link findBaseline} first, then up to `max − 1` older releases of other versions (newest first),
 * so a skew older than the latest release stays covered. With the env var set, only that baseline.
 */
export function findBaselines(repoRoot: string, env: NodeJS.ProcessEnv = process.env, max = 2): Baseline[] {
  const explicit = env[BASELINE_ENV];
  if (explicit) {
    const commit = tryGit(repoRoot, ['rev-parse', '--verify', `${explicit}^{commit}`]);
    if (!commit) throw new Error(`${BASELINE_ENV}=${explicit} does not name a commit in ${repoRoot}`);
    const version = versionAt(repoRoot, commit);
    if (!version) throw new Error(`${BASELINE_ENV}=${explicit}: ${WIRE_DIR}/package.json is missing at ${commit}`);
    return [{ commit, version, source: 'env' }];
  }
  const found: Baseline[] = [];
  const dirty = tryGit(repoRoot, ['status', '--porcelain', '--', WIRE_DIR]) !== '';
  const headTree = tryGit(repoRoot, ['rev-parse', `HEAD:${WIRE_DIR}`]);
  const log = tryGit(repoRoot, ['log', '--format=%H', '--', `${WIRE_DIR}/package.json`]) ?? '';
  for (const commit of log.split('\n').filter(Boolean)) {
    const version = versionAt(repoRoot, commit);
    if (!version || !RELEASE.test(version) || version === '0.0.0') continue;
    if (versionAt(repoRoot, `${commit}^`) === version) continue;
    // Why: the working tree itself is not a baseline; comparing a release with itself proves nothing.
    if (!dirty && tryGit(repoRoot, ['rev-parse', `${commit}:${WIRE_DIR}`]) === headTree) continue;
    if (found.some((b) => b.version === version)) continue;
    found.push({ commit, version, source: 'history' });
    if (found.length >= max) break;
  }
  if (found.length > 0) return found;
  const shallow = tryGit(repoRoot, ['rev-parse', '--is-shallow-repository']) === 'true';
  throw new Error(
    `no released @orca/wire baseline found in the git history of ${repoRoot}` +
      (shallow ? ' (this clone is shallow: fetch full history, e.g. `git fetch --unshallow`)' : '') +
      `; set ${BASELINE_ENV}=<commit> to name one explicitly`,
  );
}

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/**
 * Extracts `packages/wire` at `commit` with `git archive` into a gitignored cache keyed by commit and
 * format stamp, prunes tests, and checks that no relative import leaves the cache dir. Returns the
 * extracted package directory.
 */
export function extractBaseline(repoRoot: string, commit: string, cacheRoot = defaultCacheRoot()): string {
  const dir = join(cacheRoot, `${commit}-${CACHE_FORMAT_STAMP}`);
  const stamp = join(dir, '.extracted');
  if (!existsSync(stamp)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', '--format=tar', commit, WIRE_DIR], {
      cwd: repoRoot,
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    for (const file of walk(join(dir, WIRE_DIR))) {
      if (/\.test\.ts$/.test(file) || file.includes(`${join(dir, WIRE_DIR, 'bench')}`)) rmSync(file);
    }
    writeFileSync(stamp, `${commit}\n`);
  }
  const packageDir = join(dir, WIRE_DIR);
  for (const file of walk(join(packageDir, 'src'))) {
    if (!file.endsWith('.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), match[1] ?? '.');
      const rel = relative(dir, target);
      if (rel.startsWith('..')) {
        throw new Error(
          `baseline ${commit}: ${relative(dir, file)} imports ${match[1]}, which resolves outside its cache dir`,
        );
      }
    }
  }
  return packageDir;
}

/** `tests/wire-compat/.cache` (gitignored). */
export function defaultCacheRoot(): string {
  return fileURLToPath(new URL('../.cache', import.meta.url));
}

/** The repository root (two levels above this package). */
export function repoRootDir(): string {
  return git(fileURLToPath(new URL('.', import.meta.url)), ['rev-parse', '--show-toplevel']);
}

/** The `orca-source` target of a subpath in an extracted package. */
export function sourceEntry(packageDir: string, subpath: string): string {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    exports: Record<string, { 'orca-source'?: string }>;
  };
  const target = pkg.exports[subpath]?.['orca-source'];
  if (!target) throw new Error(`baseline package has no orca-source export for ${subpath}`);
  return join(packageDir, target);
}
