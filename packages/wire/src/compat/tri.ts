/**
 * A field with three states. `absent` = unknown (old host, unverifiable, timed out);
 * `null` = evaluated and nothing found; `value` = evaluated and found. No hop may turn absent into null.
 */
export type Tri<T> = { kind: 'absent' } | { kind: 'null' } | { kind: 'value'; value: T };

/** Reads `obj[key]` with an own-key test: a missing key is `absent`, a present null is `null`. */
export function readTri<T = unknown>(obj: unknown, key: string): Tri<T> {
  if (typeof obj !== 'object' || obj === null || !Object.hasOwn(obj, key)) return { kind: 'absent' };
  const value = (obj as Record<string, unknown>)[key];
  if (value === undefined) return { kind: 'absent' };
  return value === null ? { kind: 'null' } : { kind: 'value', value: value as T };
}

/** Writes a tri-state into `obj`: absent → the key is not set (and removed if present). */
export function writeTri<T>(obj: Record<string, unknown>, key: string, tri: Tri<T>): Record<string, unknown> {
  if (tri.kind === 'absent') delete obj[key];
  else obj[key] = tri.kind === 'null' ? null : tri.value;
  return obj;
}

/** `undefined` → absent, `null` → null, anything else → value. */
export function triFrom<T>(value: T | null | undefined): Tri<T> {
  if (value === undefined) return { kind: 'absent' };
  if (value === null) return { kind: 'null' };
  return { kind: 'value', value };
}
