import type { QueueItemView } from '@orca/wire/contract';
/** A queued prompt as the host reports it (`queue.list`, `queue.watch`); the fields the page shows. */
/** A queued prompt as the host reports it (`queue.*`, `@orca/wire/contract`). */
export type QueueItem = QueueItemView;

/** Is the item still to be delivered (it can be removed or moved while `queued`)? */
export function isPending(item: Pick<QueueItem, 'state'>): boolean {
  return item.state === 'queued' || item.state === 'delivering';
}

/** How a receipt proves the prompt arrived, in words. */
export function proofText(receipt: NonNullable<QueueItem['receipt']>): string {
  if (receipt.submittedBy === 'hook' && receipt.hookProof === 'text') return 'its prompt hook carried this prompt';
  if (receipt.submittedBy === 'hook') return 'its prompt hook';
  return 'the screen';
}

/** The state column: the place in the queue, how a submission was proven, or why it ended. */
export function queueStateText(item: QueueItem): string {
  if (item.state === 'queued') {
    const place = item.position !== undefined ? `queued #${item.position}` : 'queued';
    return item.waitingFor ? `${place} · waiting for ${item.waitingFor}` : place;
  }
  if (item.state === 'delivering') return 'delivering';
  if (item.state === 'submitted' && item.receipt) {
    const written = item.receipt.stages.find((s) => s.stage === 'input_written')?.at;
    const submitted = item.receipt.stages.find((s) => s.stage === 'submitted')?.at;
    const ms = written !== undefined && submitted !== undefined ? ` in ${submitted - written} ms` : '';
    return `submitted${ms} · ${proofText(item.receipt)}`;
  }
  if (item.state === 'failed' && item.error) return `failed · ${item.error.code}`;
  return item.state;
}

/** Pending items in queue order, then the finished ones, newest first (as the host lists them). */
export function orderQueue(items: readonly QueueItem[]): QueueItem[] {
  const pending = items.filter(isPending).sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const done = items.filter((i) => !isPending(i)).sort((a, b) => b.id - a.id);
  return [...pending, ...done];
}
