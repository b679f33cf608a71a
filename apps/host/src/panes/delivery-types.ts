import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';

/** A dispatch's stages and receipt: the contract's types (`@orca/wire/contract`). */
export type { DispatchReceipt, DispatchStage } from '@orca/wire/contract';

/** How a delivery behaves; see {@link deliverPrompt}. */
export interface DeliveryOptions {
  readonly now: () => number;
  readonly commandHooks: Pick<HostCommandHooks, 'beforeSubmitPrompt'>;
  /**
   * `refuse` (a direct dispatch): a dialog or menu refuses at once with `agent_prompt_blocked`.
   * `wait` (the queue): wait, without holding the pane, until a human answered it.
   */
  readonly atDialog: 'refuse' | 'wait';
  /** When readiness and proof are given up (ms, host clock); null: readiness waits for ever (the queue). */
  readonly deadline: number | null;
  /** With no `deadline`: how long after the text is written the proof may take (ms). */
  readonly proofWindowMs: number;
  /**
   * Aborting it stops a delivery that has not written yet (the result is {@link DeliveryAborted});
   * one whose text is being written is not stopped by it.
   */
  readonly signal?: AbortSignal;
  /**
   * The host is stopping: a delivery that has not written stops ({@link DeliveryAborted}); one that
   * has written sends its submit key at once and ends {@link DeliveryInterrupted}.
   */
  readonly stopping?: AbortSignal;
  /** The queue item delivered (null: a direct dispatch); shown as the pane's input holder. */
  readonly itemId?: number | null;
  /**
   * Called with the pane held, right before the first byte is written (the queue records
   * `delivering`); throwing {@link DeliveryAborted} there stops the delivery with nothing written.
   */
  readonly onWriting?: () => void;
  /** What the delivery waits for now (`null`: nothing; it is going in). For the queue's view. */
  readonly onWaiting?: (reason: string | null) => void;
}

/** A delivery stopped before any byte was written. */
export class DeliveryAborted extends Error {
  constructor() {
    super('the delivery was stopped before anything was written');
    this.name = 'DeliveryAborted';
  }
}

/** The host stopped after the prompt's text was written (its submit key was sent; no proof was awaited). */
export class DeliveryInterrupted extends Error {
  constructor() {
    super('the host stopped while this prompt was being delivered; its submit key was sent, its proof not awaited');
    this.name = 'DeliveryInterrupted';
  }
}
