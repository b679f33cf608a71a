import type { NotifyKind } from '@orca/wire/contract';

/** What a notification says, and one notification as every sink receives it (webhook JSON, command stdin, the board): the contract's `notify.watch` event. */
export type { NotifyEventView as NotifyEvent, NotifyKind } from '@orca/wire/contract';

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
