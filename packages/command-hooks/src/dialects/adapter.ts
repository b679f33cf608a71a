import type { CanonicalEvent, EventPayloads, HookContext } from '../events.ts';
import type { CommandHook } from '../hook.ts';
import type { ExitedRun, Interpretation } from '../internal/interpretation.ts';

/** Marshal + interpret for one canonical event in one dialect. */
export interface DialectEventHandler<E extends CanonicalEvent> {
  /** The hook's stdin object, or null to abstain (e.g. a dedicated Cursor event for another tool). */
  marshal(hook: CommandHook, payload: EventPayloads[E], ctx: HookContext): Record<string, unknown> | null;
  /** The dialect's exit-code table for a process that exited with a code. */
  interpret(run: ExitedRun, payload: EventPayloads[E], hook: CommandHook): Interpretation;
  /** Matcher subject; undefined = the matcher is ignored on this event. */
  subject?(payload: EventPayloads[E], hook: CommandHook): string | undefined;
}

/**
 * The typed event dispatch table of a dialect: indexing it with a generic `E` keeps the hook's
 * event and the payload type correlated, so no payload type predicates are needed. An event with
 * no entry abstains.
 */
export type DialectEventTable = { [E in CanonicalEvent]?: DialectEventHandler<E> };

/** One dialect: its events and the env vars its hooks receive. */
export interface DialectAdapter {
  events: DialectEventTable;
  /** Dialect env vars (project dir …) layered over the scrubbed base env. */
  env(hook: CommandHook): Record<string, string>;
}
