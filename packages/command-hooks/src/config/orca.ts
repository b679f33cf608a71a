import { z } from 'zod';
import { isCanonicalEvent } from '../events.ts';
import { echoValue, isPlainObject } from '../internal/text.ts';
import type { ConfigBuilder } from './builder.ts';

const rootSchema = z.strictObject({
  version: z.literal(1, { error: 'expected 1' }),
  hooks: z.record(z.string(), z.unknown(), { error: 'expected object' }),
});

const entrySchema = z.strictObject({
  command: z.string({ error: 'expected non-empty string' }).min(1, { error: 'expected non-empty string' }),
  matcher: z.string({ error: 'expected string' }).optional(),
  glob: z.union([z.string(), z.array(z.string())], { error: 'expected string or array of strings' }).optional(),
  timeout: z.number({ error: 'expected positive number' }).positive({ error: 'expected positive number' }).optional(),
  onFailure: z.enum(['open', 'closed'], { error: 'expected "open" or "closed"' }).optional(),
  async: z.boolean({ error: 'expected boolean' }).optional(),
  sandbox: z.boolean({ error: 'expected boolean' }).optional(),
  loopLimit: z
    .number({ error: 'expected number or null' })
    .int({ error: 'expected integer' })
    .nonnegative({ error: 'expected non-negative integer' })
    .nullable()
    .optional(),
});

/** Parse `.orca/hooks.json` (strict: `version: 1`, unknown keys and events are errors). */
export function parseOrcaConfig(b: ConfigBuilder, root: unknown): void {
  const r = rootSchema.safeParse(root);
  if (!r.success) {
    b.zodError([], r.error, root);
    // Why: only unknown top-level keys leave the rest usable; a wrong version or shape drops the file.
    const fatal = r.error.issues.some((i) => i.code !== 'unrecognized_keys');
    if (fatal || !isPlainObject(root) || !isPlainObject(root.hooks)) return;
  }
  const hooks = isPlainObject(root) && isPlainObject(root.hooks) ? root.hooks : {};
  for (const [event, entries] of Object.entries(hooks)) {
    if (!isCanonicalEvent(event)) {
      b.error(['hooks', event], `/hooks/${event}: expected a canonical event name, got ${echoValue(event)}`);
      continue;
    }
    if (!Array.isArray(entries)) {
      b.error(['hooks', event], `/hooks/${event}: expected array of hooks, got ${echoValue(entries)}`);
      continue;
    }
    entries.forEach((entry, i) => {
      const path = ['hooks', event, i];
      const e = entrySchema.safeParse(entry);
      if (!e.success) {
        b.zodError(path, e.error, entry);
        return;
      }
      const d = e.data;
      b.add(path, {
        event,
        wireEvent: event,
        command: d.command,
        ...(d.matcher !== undefined ? { matcher: d.matcher } : {}),
        ...(d.glob !== undefined ? { glob: typeof d.glob === 'string' ? [d.glob] : d.glob } : {}),
        timeoutMs: b.timeoutMs(d.timeout),
        onFailure: d.onFailure ?? 'open',
        ...(d.async !== undefined ? { async: d.async } : {}),
        ...(d.sandbox !== undefined ? { sandbox: d.sandbox } : {}),
        ...(d.loopLimit !== undefined ? { loopLimit: d.loopLimit } : {}),
      });
    });
  }
}
