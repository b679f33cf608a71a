import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time token comparison: SHA-256 digests compared with `timingSafeEqual`, so neither
 * length nor content leaks through timing. Nothing is trimmed.
 */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
