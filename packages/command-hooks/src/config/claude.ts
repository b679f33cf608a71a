import { z } from 'zod';
import type { CanonicalEvent } from '../events.ts';
import { echoValue, isPlainObject } from '../internal/text.ts';
import type { ConfigBuilder } from './builder.ts';
import { forEachVendorEvent } from './vendor-events.ts';

/** Claude wire events Orca fires, and their canonical event. */
export const CLAUDE_EVENTS: Readonly<Record<string, CanonicalEvent>> = {
  PreToolUse: 'toolGate',
  PostToolUse: 'afterToolUse',
  PostToolUseFailure: 'afterToolUse',
  UserPromptSubmit: 'beforeSubmitPrompt',
  Stop: 'stop',
  SubagentStop: 'subagentStop',
  SessionStart: 'sessionStart',
};

/** Claude events that exist but Orca never fires. */
export const CLAUDE_UNSUPPORTED_EVENTS = new Set([
  'Notification',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'PermissionRequest',
  'SubagentStart',
  'StopFailure',
  'TeammateIdle',
  'Setup',
]);

const groupSchema = z.object({
  matcher: z.string({ error: 'expected string' }).optional(),
  hooks: z.array(z.unknown(), { error: 'expected array of handlers' }),
});

const commandHandlerSchema = z.object({
  type: z.literal('command'),
  command: z.string({ error: 'expected non-empty string' }).min(1, { error: 'expected non-empty string' }),
  timeout: z.number({ error: 'expected positive number' }).optional(),
  async: z.boolean({ error: 'expected boolean' }).optional(),
  onFailure: z.literal('block', { error: 'expected "block"' }).optional(),
});

/** Parse `hooks` of a Claude settings file into the builder (lenient: unknown keys ignored). */
export function parseClaudeConfig(b: ConfigBuilder, root: unknown): void {
  forEachVendorEvent(
    b,
    root,
    { vendor: 'Claude', events: CLAUDE_EVENTS, unsupported: CLAUDE_UNSUPPORTED_EVENTS, entries: 'matcher groups' },
    (event, wireEvent, groups) => {
      groups.forEach((group, gi) => {
        const g = groupSchema.safeParse(group);
        if (!g.success) {
          b.zodError(['hooks', wireEvent, gi], g.error, group);
          return;
        }
        g.data.hooks.forEach((handler, hi) => {
          const path = ['hooks', wireEvent, gi, 'hooks', hi];
          if (isPlainObject(handler) && typeof handler.type === 'string' && handler.type !== 'command') {
            b.warn('unsupported-hook-type', path, `hook type ${echoValue(handler.type)} is not run (only "command")`);
            return;
          }
          const h = commandHandlerSchema.safeParse(handler);
          if (!h.success) {
            b.zodError(path, h.error, handler);
            return;
          }
          b.add(path, {
            event,
            wireEvent,
            command: h.data.command,
            ...(g.data.matcher !== undefined ? { matcher: g.data.matcher } : {}),
            timeoutMs: b.timeoutMs(h.data.timeout),
            onFailure: h.data.onFailure === 'block' ? 'closed' : 'open',
            ...(h.data.async === true ? { async: true } : {}),
          });
        });
      });
    },
  );
}
