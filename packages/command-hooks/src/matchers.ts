import path from 'node:path';
import picomatch from 'picomatch';
import type { Dialect } from './hook.ts';

/** A compiled matcher: a predicate on the event's subject. */
export type MatcherTest = (subject: string) => boolean;

const EXACT_NAMES = /^[A-Za-z0-9_|]+$/;
const cache = new Map<string, MatcherTest | Error>();

function compileUncached(dialect: Dialect, matcher: string): MatcherTest {
  if (matcher === '' || matcher === '*') return () => true;
  if (dialect === 'claude' && EXACT_NAMES.test(matcher)) {
    const names = new Set(matcher.split('|').filter((n) => n !== ''));
    return (subject) => names.has(subject);
  }
  const re = new RegExp(matcher);
  return (subject) => re.test(subject);
}

/**
 * Compile a dialect matcher. claude: empty/`*`/absent → all; only `[A-Za-z0-9_|]` → exact names
 * split on `|`; else an unanchored RegExp. cursor/orca: an unanchored RegExp (empty/`*` → all).
 * Returns an Error for an invalid RegExp (such a hook never fires).
 */
export function compileMatcher(dialect: Dialect, matcher: string | undefined): MatcherTest | Error {
  if (matcher === undefined) return () => true;
  const key = `${dialect}\u0000${matcher}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let compiled: MatcherTest | Error;
  try {
    compiled = compileUncached(dialect, matcher);
  } catch (error) {
    compiled = error instanceof Error ? error : new Error(String(error));
  }
  cache.set(key, compiled);
  return compiled;
}

/** True when the hook's matcher accepts `subject`; an undefined subject ignores the matcher. */
export function matcherAccepts(dialect: Dialect, matcher: string | undefined, subject: string | undefined): boolean {
  if (subject === undefined) return true;
  const test = compileMatcher(dialect, matcher);
  return test instanceof Error ? false : test(subject);
}

/**
 * orca `glob` on file events: matches the absolute path, the root-relative path or the basename.
 *
 * @example
 * globAccepts(['*.ts'], '/repo/src/a.ts', '/repo'); // true (basename)
 */
export function globAccepts(globs: readonly string[] | undefined, filePath: string, root: string): boolean {
  if (globs === undefined || globs.length === 0) return true;
  const absolute = path.resolve(root, filePath);
  const candidates = [absolute, path.relative(root, absolute), path.basename(absolute)];
  const isMatch = picomatch(globs as string[], { dot: true });
  return candidates.some((c) => isMatch(c));
}
