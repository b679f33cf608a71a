import { samePrompt, submittedPromptOf } from '@orca/agent-status/submit';
import type { QueueItemRecord, Store } from '../store/store.ts';
import type { DispatchReceipt } from './delivery-types.ts';
import { promptDigest } from './prompt-proof.ts';

/**
 * After a restart, the receipt of a queued prompt whose delivery the host did not see end: the
 * pane's stored prompt hook that arrived once its text was being written and carries its text.
 * Null when no stored hook proves it (then it is never written again).
 */
export function proofFromStoredHooks(
  store: Pick<Store, 'getPane' | 'hookRows'>,
  item: Pick<QueueItemRecord, 'handle' | 'prompt' | 'deliveringAt'>,
): (DispatchReceipt & Record<string, unknown>) | null {
  const pane = store.getPane(item.handle);
  if (!pane || item.deliveringAt === null) return null;
  for (const row of store.hookRows(pane.paneKey)) {
    if (row.receivedAt < item.deliveringAt) continue;
    const event = row.hookEventName ?? undefined;
    const text = submittedPromptOf(row.source, event, row.envelope.payload);
    if (typeof text !== 'string' || !samePrompt(item.prompt, text)) continue;
    return {
      bytes: 0,
      stages: [
        { stage: 'input_written', at: item.deliveringAt },
        { stage: 'submitted', at: row.receivedAt },
      ],
      submittedBy: 'hook',
      hookProof: 'text',
      promptDigest: promptDigest(item.prompt),
      submitKeys: 0,
      recovered: true,
    };
  }
  return null;
}
