/** What a notification says. */
export type NotifyKind = 'waiting' | 'resolved' | 'escalated' | 'done' | 'error' | 'test';

/** One notification, as every sink receives it (webhook JSON, command stdin, the board). */
export interface NotifyEvent {
  /** Unique per event; a `resolved` names the `waiting` it resolves in `resolves`. */
  readonly id: string;
  readonly kind: NotifyKind;
  readonly at: number;
  readonly handle: string | null;
  readonly name: string | null;
  readonly agent: string | null;
  /** What the agent waits for (`permission`, `question`, …) or how the pane ended. */
  readonly reason: string | null;
  /** When the wait began (waiting, resolved, escalated). */
  readonly since?: number;
  readonly resolves?: string;
  /** One line for people (Slack's `text`, the ntfy body, the desktop body). */
  readonly text: string;
  /** A short title (ntfy `Title`, the desktop summary). */
  readonly title: string;
}

/** The words of an event. */
export function describe(
  kind: NotifyKind,
  who: { handle: string | null; name: string | null; agent: string | null },
  reason: string | null,
  extra: { turnSeconds?: number; exit?: string } = {},
): { title: string; text: string } {
  const pane = who.name ?? who.handle ?? 'a pane';
  const agent = who.agent ? ` (${who.agent})` : '';
  switch (kind) {
    case 'waiting':
      return { title: `${pane} needs you`, text: `${pane}${agent} is waiting for you: ${reason ?? 'approval'}` };
    case 'escalated':
      return {
        title: `${pane} still needs you`,
        text: `${pane}${agent} is still waiting for you: ${reason ?? 'approval'}`,
      };
    case 'resolved':
      return { title: `${pane} answered`, text: `${pane}${agent} no longer waits (${reason ?? 'answered'})` };
    case 'done':
      return {
        title: `${pane} is done`,
        text: `${pane}${agent} finished its turn${extra.turnSeconds !== undefined ? ` after ${extra.turnSeconds} s` : ''}`,
      };
    case 'error':
      return { title: `${pane} ended`, text: `${pane}${agent} ended: ${extra.exit ?? reason ?? 'error'}` };
    case 'test':
      return { title: 'orca test notification', text: 'orca: this is a test notification (orca notify test)' };
  }
}
