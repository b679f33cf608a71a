import type { CanonicalEvent } from '../events.ts';
import { echoValue, isPlainObject } from '../internal/text.ts';
import type { ConfigBuilder } from './builder.ts';

/** How one vendor file names its events and what each event's value holds. */
export interface VendorEventTable {
  /** `Claude` / `Cursor`, as warnings name it. */
  vendor: string;
  events: Readonly<Record<string, CanonicalEvent>>;
  unsupported: ReadonlySet<string>;
  /** What each event's array holds, for the error message (`matcher groups`, `hooks`). */
  entries: string;
}

/**
 * Walks the `hooks` object of a lenient vendor file (Claude settings, Cursor hooks.json): reports
 * a non-object root or `hooks`, warns on unknown and unsupported events (never a silent skip),
 * reports a non-array value, and hands every known event's entries to `each`.
 */
export function forEachVendorEvent(
  b: ConfigBuilder,
  root: unknown,
  table: VendorEventTable,
  each: (event: CanonicalEvent, wireEvent: string, entries: readonly unknown[]) => void,
): void {
  if (!isPlainObject(root)) {
    b.error([], `/: expected object, got ${echoValue(root)}`);
    return;
  }
  if (root.hooks === undefined) return;
  if (!isPlainObject(root.hooks)) {
    b.error(['hooks'], `/hooks: expected object, got ${echoValue(root.hooks)}`);
    return;
  }
  for (const [wireEvent, entries] of Object.entries(root.hooks)) {
    const event = table.events[wireEvent];
    if (event === undefined) {
      const code = table.unsupported.has(wireEvent) ? 'unsupported-event' : 'unknown-event';
      b.warn(
        code,
        ['hooks', wireEvent],
        `${code === 'unknown-event' ? 'unknown' : 'unsupported'} ${table.vendor} event ${echoValue(wireEvent)} ignored`,
      );
      continue;
    }
    if (!Array.isArray(entries)) {
      b.error(
        ['hooks', wireEvent],
        `/hooks/${wireEvent}: expected array of ${table.entries}, got ${echoValue(entries)}`,
      );
      continue;
    }
    each(event, wireEvent, entries);
  }
}
