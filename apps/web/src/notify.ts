import { type BoardPane, isWaiting } from './board-model.ts';

/** Panes of `next` that wait on a human and did not in `previous` (new panes count when waiting). */
export function newlyWaiting(previous: readonly BoardPane[], next: readonly BoardPane[]): BoardPane[] {
  const before = new Map(previous.map((p) => [p.handle, isWaiting(p)]));
  return next.filter((p) => isWaiting(p) && before.get(p.handle) !== true);
}

/** Shows one browser notification per newly waiting pane (only when the user opted in and allowed it). */
export function notifyWaiting(panes: readonly BoardPane[]): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  for (const p of panes) {
    const reason = p.agentWait?.reason ?? 'approval';
    new Notification(`${p.name ?? p.handle} is waiting`, { body: `${p.agent ?? 'agent'}: ${reason}`, tag: p.handle });
  }
}
