import { z } from 'zod';
import type { CanonicalEvent } from '../events.ts';
import { echoValue, isPlainObject } from '../internal/text.ts';
import type { ConfigBuilder } from './builder.ts';
import { forEachVendorEvent } from './vendor-events.ts';

/** Cursor wire events Orca fires, and their canonical event. */
export const CURSOR_EVENTS: Readonly<Record<string, CanonicalEvent>> = {
  beforeShellExecution: 'toolGate',
  beforeMCPExecution: 'toolGate',
  beforeReadFile: 'toolGate',
  preToolUse: 'toolGate',
  afterShellExecution: 'afterToolUse',
  afterMCPExecution: 'afterToolUse',
  postToolUse: 'afterToolUse',
  postToolUseFailure: 'afterToolUse',
  beforeSubmitPrompt: 'beforeSubmitPrompt',
  afterFileEdit: 'afterFileEdit',
  stop: 'stop',
  subagentStart: 'subagentStart',
  subagentStop: 'subagentStop',
  sessionStart: 'sessionStart',
};

/** Cursor events that exist but Orca never fires. */
export const CURSOR_UNSUPPORTED_EVENTS = new Set([
  'afterAgentResponse',
  'afterAgentThought',
  'sessionEnd',
  'preCompact',
  'beforeTabFileRead',
  'afterTabFileEdit',
]);

const entrySchema = z.object({
  command: z.string({ error: 'expected non-empty string' }).min(1, { error: 'expected non-empty string' }),
  type: z.string({ error: 'expected string' }).optional(),
  timeout: z.number({ error: 'expected positive number' }).optional(),
  matcher: z.string({ error: 'expected string' }).optional(),
  failClosed: z.boolean({ error: 'expected boolean' }).optional(),
  loop_limit: z
    .number({ error: 'expected number or null' })
    .int({ error: 'expected integer' })
    .nonnegative({ error: 'expected non-negative integer' })
    .nullable()
    .optional(),
});

/** Parse a Cursor `hooks.json` into the builder (lenient: unknown keys ignored). */
export function parseCursorConfig(b: ConfigBuilder, root: unknown): void {
  forEachVendorEvent(
    b,
    root,
    { vendor: 'Cursor', events: CURSOR_EVENTS, unsupported: CURSOR_UNSUPPORTED_EVENTS, entries: 'hooks' },
    (event, wireEvent, entries) => {
      entries.forEach((entry, i) => {
        const path = ['hooks', wireEvent, i];
        if (isPlainObject(entry) && typeof entry.type === 'string' && entry.type !== 'command') {
          b.warn('unsupported-hook-type', path, `hook type ${echoValue(entry.type)} is not run (only "command")`);
          return;
        }
        const e = entrySchema.safeParse(entry);
        if (!e.success) {
          b.zodError(path, e.error, entry);
          return;
        }
        b.add(path, {
          event,
          wireEvent,
          command: e.data.command,
          ...(e.data.matcher !== undefined ? { matcher: e.data.matcher } : {}),
          timeoutMs: b.timeoutMs(e.data.timeout),
          onFailure: e.data.failClosed === true ? 'closed' : 'open',
          ...(e.data.loop_limit !== undefined ? { loopLimit: e.data.loop_limit } : {}),
        });
      });
    },
  );
}
