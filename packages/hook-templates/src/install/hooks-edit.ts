import { isManagedCommand } from '../launchers/managed.ts';

/** A JSON object (after validation). */
export type JsonObject = Record<string, unknown>;

/** Whether `v` is a plain JSON object. */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a handler object runs one of our commands (`command`, `bash` or `powershell`). */
export function isManagedHandler(h: unknown): boolean {
  if (!isJsonObject(h)) return false;
  return isManagedCommand(h.command) || isManagedCommand(h.bash) || isManagedCommand(h.powershell);
}

/** Entry `e` with managed handlers removed; `null` when it was ours and is now empty. */
function sweepEntry(e: unknown): { entry: unknown | null; removed: boolean } {
  if (isJsonObject(e) && Array.isArray(e.hooks)) {
    const kept = e.hooks.filter((h) => !isManagedHandler(h));
    if (kept.length === e.hooks.length) return { entry: e, removed: false };
    return kept.length === 0 ? { entry: null, removed: true } : { entry: { ...e, hooks: kept }, removed: true };
  }
  return isManagedHandler(e) ? { entry: null, removed: true } : { entry: e, removed: false };
}

/**
 * Sweeps managed handlers from the events of `container` (all events, or only `only`), then
 * appends `ours[event]` after the user's entries (their content and order kept). Event keys
 * emptied by the sweep go. Returns a new object; the input is not changed.
 */
export function sweepAndAppend(
  container: JsonObject,
  ours: Readonly<Record<string, readonly unknown[]>>,
  only?: ReadonlySet<string>,
): JsonObject {
  const out: JsonObject = {};
  const emptied = new Set<string>();
  for (const [event, value] of Object.entries(container)) {
    if (!Array.isArray(value) || (only !== undefined && !only.has(event))) {
      out[event] = value;
      continue;
    }
    let removed = false;
    const kept: unknown[] = [];
    for (const e of value) {
      const r = sweepEntry(e);
      removed ||= r.removed;
      if (r.entry !== null) kept.push(r.entry);
    }
    out[event] = kept;
    if (kept.length === 0 && removed) emptied.add(event);
  }
  for (const [event, entries] of Object.entries(ours)) {
    if (entries.length === 0) continue;
    const existing = out[event];
    out[event] = Array.isArray(existing) ? [...existing, ...entries] : [...entries];
  }
  // Why: a key emptied by the sweep keeps its position while ours refill it; otherwise it goes.
  for (const event of emptied) {
    const v = out[event];
    if (Array.isArray(v) && v.length === 0) delete out[event];
  }
  return out;
}

/** Count of managed handlers per event of `container`. */
export function managedEvents(container: JsonObject): Set<string> {
  const found = new Set<string>();
  for (const [event, value] of Object.entries(container)) {
    if (!Array.isArray(value)) continue;
    for (const e of value) {
      const managed = isJsonObject(e) && Array.isArray(e.hooks) ? e.hooks.some(isManagedHandler) : isManagedHandler(e);
      if (managed) found.add(event);
    }
  }
  return found;
}
