import { composerInput, draftInComposer, PROMPT_SUBMIT_EVENTS, submitStrategy } from '@orca/agent-status';
import {
  DISPATCH_DEFAULT_TIMEOUT_MS,
  DISPATCH_POLL_MS,
  DISPATCH_WORKING_WAIT_MS,
  RAW_INPUT_REOPEN_AFTER_MS,
  SCREEN_PROOF_HOOK_GRACE_MS,
  SUBMIT_ECHO_WAIT_MS,
  SUBMIT_RETRY_AFTER_MS,
} from '../constants.ts';
import { refusal } from '../errors.ts';
import { holdReadyPane, notWritable, paneAgent, waitReady } from './delivery-readiness.ts';
import {
  DeliveryAborted,
  DeliveryInterrupted,
  type DeliveryOptions,
  type DispatchReceipt,
  type DispatchStage,
} from './delivery-types.ts';
import type { LivePane } from './live-pane.ts';
import { type PromptProof, promptDigest, promptProof } from './prompt-proof.ts';

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    // Why: a delivery never keeps a stopping host's process alive.
    setTimeout(resolve, Math.max(0, ms)).unref?.();
  });

/**
 * Delivers `prompt` to the agent in `pane` and proves it arrived.
 *
 * 1. Waits for readiness without holding the pane (see {@link DeliveryOptions.atDialog}), then runs
 *    the user's `beforeSubmitPrompt` command hooks — still without holding it, so a slow hook never
 *    locks a human out — once.
 * 2. Takes the pane's one writer (no other input interleaves) and checks readiness again with it
 *    held; if another writer got in first, lets go and waits again.
 * 3. Writes the text (a bracketed paste when the agent enabled it) and sends the submit key once
 *    the draft is on screen and the agent's paste window has passed.
 * 4. Waits for proof: the agent's prompt hook *carrying this prompt's text* (or, for an agent whose
 *    hook carries none, its prompt hook), else its screen leaving the draft while it works. A hook
 *    carrying another prompt's text proves nothing, and then the screen does not either. A draft
 *    still in the composer gets one more submit key — never the text again, and only while no
 *    dialog is up. Raw input is let through again once the submit keys are sent.
 *
 * Refusals before the text is written leave zero bytes; a prompt not proven submitted by the
 * deadline refuses with `prompt_not_submitted` naming the last stage reached.
 */
export async function deliverPrompt(
  pane: LivePane,
  handle: string,
  prompt: string,
  opts: DeliveryOptions,
): Promise<DispatchReceipt> {
  const start = opts.now();
  const stages: DispatchStage[] = [];
  await waitReady(pane, handle, opts);
  const gate = await opts.commandHooks.beforeSubmitPrompt(pane.record, prompt);
  if (gate.blocked) throw refusal('hook_blocked', gate.message, { handle });
  const lease = await holdReadyPane(pane, handle, opts);
  opts.onWaiting?.(null);
  let released = false;
  let submitOnStop: (() => void) | undefined;
  const release = (): void => {
    released = true;
    lease.release();
  };
  try {
    if (pane.exit) throw notWritable(pane, handle);
    stages.push({ stage: 'ready', at: opts.now() });

    const { agent } = await paneAgent(pane);
    const strategy = submitStrategy(agent);
    await pane.screen.settled();
    const text = composerInput(prompt, strategy, pane.screen.bracketedPaste());
    const hooksBefore = pane.promptHooks.last();
    if (opts.signal?.aborted || opts.stopping?.aborted) throw new DeliveryAborted();
    opts.onWriting?.();
    let bytes = 0;
    let submitKeys = 0;
    const submit = (): void => {
      lease.write(strategy.submitKey);
      bytes += Buffer.byteLength(strategy.submitKey);
      submitKeys += 1;
    };
    lease.write(text);
    bytes += Buffer.byteLength(text);
    // Why: the text and its submit key go in together; leaving them half-typed would merge them
    // with the next prompt. On the stop signal the key goes at once, before the host lets go of its
    // panes, whatever this delivery is awaiting (a slow screen must not hold it past the grace).
    submitOnStop = (): void => {
      if (submitKeys === 0 && !pane.exit) submit();
    };
    opts.stopping?.addEventListener('abort', submitOnStop, { once: true });
    const writtenAt = opts.now();
    stages.push({ stage: 'input_written', at: writtenAt });
    const proofBy = opts.deadline ?? writtenAt + opts.proofWindowMs;

    const draftShown = async (): Promise<boolean> => {
      await pane.screen.settled();
      return draftInComposer(pane.screen.renderedRows(), prompt, agent);
    };
    for (const echoBy = opts.now() + SUBMIT_ECHO_WAIT_MS; opts.now() < echoBy && !(await draftShown()); ) {
      if (pane.exit || opts.stopping?.aborted) break;
      await sleep(DISPATCH_POLL_MS / 4);
    }
    if (!opts.stopping?.aborted) await sleep(strategy.pasteQuietMs);
    if (pane.exit && submitKeys === 0) throw notWritable(pane, handle);
    if (submitKeys === 0) submit();
    pane.acceptedPrompt = true;
    const submittedAt = opts.now();
    // Why: the proof, if it comes, is a stored or spooled hook at the next start.
    if (opts.stopping?.aborted) throw new DeliveryInterrupted();

    let proven: { by: 'hook'; proof: PromptProof } | { by: 'screen' } | null = null;
    let foreign = 0;
    // Why: an agent with a prompt hook usually shows its turn first; its hook is the better proof.
    const hookExpected = agent !== null && Object.hasOwn(PROMPT_SUBMIT_EVENTS, agent);
    let screenSaysTakenAt: number | null = null;
    let rawOpen = false;
    while (proven === null) {
      const hooks = promptProof(pane.promptHooks.after(hooksBefore), prompt);
      foreign = hooks.foreign;
      if (hooks.proof) proven = { by: 'hook', proof: hooks.proof };
      else {
        const draft = await draftShown();
        // Why: a hook naming another prompt says the agent took *that* one; the screen cannot tell them apart.
        if (!draft && foreign === 0 && pane.verdict?.status === 'working') {
          screenSaysTakenAt ??= opts.now();
          if (!hookExpected || opts.now() - screenSaysTakenAt >= SCREEN_PROOF_HOOK_GRACE_MS || pane.exit) {
            proven = { by: 'screen' };
          }
        } else if (draft && submitKeys === 1 && !rawOpen && opts.now() - submittedAt >= SUBMIT_RETRY_AFTER_MS) {
          // Why: the retry key is a key like any other: never into a dialog or menu.
          const guard = pane.status.sendGuard(await pane.status.evaluate(), opts.now());
          if ('ok' in guard && guard.ok) submit();
        }
      }
      if (proven !== null) break;
      if (!rawOpen && opts.now() - submittedAt >= RAW_INPUT_REOPEN_AFTER_MS) {
        // Why: every byte of the prompt is in; a human must be able to answer what it raised.
        lease.openRawInput();
        rawOpen = true;
      }
      if (opts.stopping?.aborted) throw new DeliveryInterrupted();
      if (pane.exit || opts.now() >= proofBy) {
        const last = stages[stages.length - 1];
        const why = foreign > 0 ? `; the agent's prompt hook carried another prompt's text (${foreign})` : '';
        throw refusal(
          'prompt_not_submitted',
          `${handle}: the agent did not take the prompt; last stage ${last?.stage ?? 'none'} at +${(last?.at ?? start) - start} ms${why}`,
          { handle, stages, foreignPromptHooks: foreign },
        );
      }
      await sleep(DISPATCH_POLL_MS / 2);
    }
    stages.push({ stage: 'submitted', at: opts.now() });
    if (proven.by === 'screen' && hookExpected) pane.promptHooks.owe(prompt, opts.now());
    // Why: the receipt is the proof; the pane is free for the next writer from here on.
    release();
    for (const until = opts.now() + DISPATCH_WORKING_WAIT_MS; opts.now() < until; await sleep(DISPATCH_POLL_MS / 2)) {
      if (pane.verdict?.status === 'working') {
        stages.push({ stage: 'working', at: opts.now() });
        break;
      }
      if (pane.exit || opts.stopping?.aborted) break;
    }
    return {
      bytes,
      stages,
      submittedBy: proven.by,
      ...(proven.by === 'hook' ? { hookProof: proven.proof } : {}),
      promptDigest: promptDigest(prompt),
      submitKeys,
    };
  } finally {
    if (submitOnStop) opts.stopping?.removeEventListener('abort', submitOnStop);
    if (!released) lease.release();
  }
}

/**
 * A direct dispatch (`orca dispatch --inject`): {@link deliverPrompt} that refuses at a dialog and
 * gives up readiness and proof together after `timeoutMs` (default `DISPATCH_DEFAULT_TIMEOUT_MS`).
 */
export function dispatchPrompt(
  pane: LivePane,
  handle: string,
  prompt: string,
  opts: {
    now: () => number;
    commandHooks: DeliveryOptions['commandHooks'];
    timeoutMs?: number;
    stopping?: AbortSignal;
  },
): Promise<DispatchReceipt> {
  const timeoutMs = opts.timeoutMs ?? DISPATCH_DEFAULT_TIMEOUT_MS;
  return deliverPrompt(pane, handle, prompt, {
    now: opts.now,
    commandHooks: opts.commandHooks,
    atDialog: 'refuse',
    deadline: opts.now() + timeoutMs,
    proofWindowMs: timeoutMs,
    ...(opts.stopping ? { stopping: opts.stopping } : {}),
  });
}
