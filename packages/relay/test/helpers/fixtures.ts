/** A valid paneKey. */
export const PANE = 'tab-1:123e4567-e89b-12d3-a456-426614174000';
/** A second valid paneKey. */
export function paneKey(i: number): string {
  return `tab-${i}:${(0x10000000 + i).toString(16)}-e89b-12d3-a456-426614174000`;
}
/** Nest `{a: …}` objects `depth` levels deep (depth 1 = `{}`). */
export function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
}
