import {
  type AgentId,
  buildMatchWindow,
  composerAtBottom,
  composerDraft,
  composerInput,
  draftInComposer,
  PROMPT_SUBMIT_EVENTS,
  submitStrategy,
} from '@orca/agent-status';
import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';
import {
  DISPATCH_DEFAULT_TIMEOUT_MS,
  DISPATCH_POLL_MS,
  DISPATCH_QUIET_MAX_MS,
  DISPATCH_QUIET_MS,
  DISPATCH_WORKING_WAIT_MS,
  RAW_INPUT_REOPEN_AFTER_MS,
  SCREEN_PROOF_HOOK_GRACE_MS,
  SUBMIT_ECHO_WAIT_MS,
  SUBMIT_RETRY_AFTER_MS,
  TYPING_QUIET_BEFORE_DELIVERY_MS,
} from '../constants.ts';
import { refusal } from '../errors.ts';
import type { LivePane } from './live-pane.ts';
import { nextChange } from './pane-change.ts';
import type { InputLease } from './pane-input.ts';
import { type PromptProof, promptDigest, promptProof } from './prompt-proof.ts';

/** A stage a dispatch reached, with its time (ms, the host clock). */
export interface DispatchStage {
  readonly stage: 'ready' | 'input_written' | 'submitted' | 'working';
  readonly at: number;
}

/** What `dispatch` reports once the agent took the prompt. */
export interface DispatchReceipt {
  /** Bytes written into the PTY (the text, its paste markers, every submit key). */
  readonly bytes: number;
  readonly stages: readonly DispatchStage[];
  /** What proved the submission: the agent's prompt hook, or its screen. */
  readonly submittedBy: 'hook' | 'screen';
  /**
   * With `submittedBy: 'hook'`: `text` — the hook carried this prompt's text; `event` — the agent's
   * prompt hook carries no text, and the pane's writer lock proves nobody else typed a prompt.
   */
  readonly hookProof?: PromptProof;
  /** SHA-256 (hex) of the prompt as compared with hooks (`normalizePromptText`): which prompt this proves. */
  readonly promptDigest: string;
  /** Submit keys sent (2 when the first left the draft in the composer). */
  readonly submitKeys: number;
  /**
   * Proven after a host restart from the stored prompt hook of a queued prompt whose delivery the
   * stopped host did not see end; `bytes` and `submitKeys` are then unknown (0).
   */
  readonly recovered?: true;
}

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

/** The agent in the pane: from its hooks, else the foreground process as recognised. */
async function paneAgent(pane: LivePane): Promise<{ agent: AgentId | null; realTui: boolean }> {
  const fg = await pane.status.foregroundAgent();
  const hooked = pane.status.agent();
  return { agent: hooked ?? fg, realTui: fg !== null && (hooked === null || hooked === fg) };
}

type Readiness =
  | { kind: 'ready' }
  | { kind: 'blocked'; code: 'agent_prompt_blocked'; reason: string }
  | { kind: 'pending'; reason: string };

/**
 * One look at the pane: may a prompt go in now? The send guard passes (an agent is running and no
 * dialog or menu is up), tui-idle is satisfied, nobody typed in the last
 * `TYPING_QUIET_BEFORE_DELIVERY_MS`, and — when a known agent's real TUI is in front — its composer
 * is at the bottom and holds no draft (a prompt pasted onto a draft goes out as one message with it).
 */
async function readiness(pane: LivePane, firstCheckAt: number, now: () => number): Promise<Readiness> {
  const verdict = await pane.status.evaluate();
  const guard = pane.status.sendGuard(verdict, firstCheckAt);
  if ('ok' in guard && !guard.ok) return { kind: 'blocked', code: 'agent_prompt_blocked', reason: guard.code };
  if ('retryAt' in guard) return { kind: 'pending', reason: 'no agent is running in the pane yet' };
  const idle = await pane.status.tuiIdle({
    lastOutputAt: pane.lastOutputAt,
    acceptedPromptThisGeneration: pane.acceptedPrompt,
  });
  if (idle.state === 'blocked') return { kind: 'blocked', code: 'agent_prompt_blocked', reason: idle.blockedReason };
  if (idle.state !== 'satisfied') return { kind: 'pending', reason: 'the agent is busy' };
  const typed = pane.input.lastRawInputAt();
  if (typed !== null && now() - typed < TYPING_QUIET_BEFORE_DELIVERY_MS) {
    return { kind: 'pending', reason: 'someone is typing into the pane' };
  }
  const { agent, realTui } = await paneAgent(pane);
  if (realTui && agent !== null) {
    const rows = pane.screen.renderedRows();
    if (composerDraft(rows, agent) === 'draft') return { kind: 'pending', reason: 'the composer holds a draft' };
    if (!composerAtBottom(agent, buildMatchWindow({ screen: rows }).lines)) {
      return { kind: 'pending', reason: 'the composer is not on screen' };
    }
  }
  return { kind: 'ready' };
}

function notWritable(pane: LivePane, handle: string): Error {
  return refusal('terminal_guard_not_writable', `pane ${handle} has exited`, { handle, exit: pane.exit });
}

function stopped(opts: DeliveryOptions): boolean {
  return opts.signal?.aborted === true || opts.stopping?.aborted === true;
}

/**
 * Waits, without holding the pane, until it may take a prompt and its output paused
 * (`DISPATCH_QUIET_MS`, at most `DISPATCH_QUIET_MAX_MS` once ready). A dialog refuses (`refuse`) or
 * is waited out (`wait`); the deadline refuses with `agent_not_ready` naming what it waited for.
 */
async function waitReady(pane: LivePane, handle: string, opts: DeliveryOptions): Promise<void> {
  let firstCheckAt = opts.now();
  let readySince: number | null = null;
  let waitingFor = '';
  for (;;) {
    if (stopped(opts)) throw new DeliveryAborted();
    if (pane.exit) throw notWritable(pane, handle);
    // Why: a queued prompt behind a long turn would evaluate the pane at every output burst; a
    // published `working` verdict is enough to know it is not ready yet.
    const busy = opts.atDialog === 'wait' && pane.verdict?.status === 'working';
    const state: Readiness = busy
      ? { kind: 'pending', reason: 'the agent is busy' }
      : await readiness(pane, firstCheckAt, opts.now);
    if (state.kind === 'blocked') {
      if (opts.atDialog === 'refuse') {
        throw refusal(state.code, `${handle}: ${state.reason}; nothing was written`, { handle });
      }
      // Why: the queue waits for the human; the no-agent recheck window restarts after the dialog.
      firstCheckAt = opts.now();
    }
    const reason =
      state.kind === 'ready'
        ? 'its output to pause'
        : state.kind === 'blocked'
          ? `a human (${state.reason})`
          : state.reason;
    if (reason !== waitingFor) {
      waitingFor = reason;
      opts.onWaiting?.(reason);
    }
    if (state.kind === 'ready') {
      readySince ??= opts.now();
      // Why: a TUI still setting up (Gemini CLI right after boot) redraws and can drop part of a
      // paste; wait for its output to pause, but never longer than DISPATCH_QUIET_MAX_MS.
      const quiet = opts.now() - pane.lastOutputAt >= DISPATCH_QUIET_MS;
      if (quiet || opts.now() - readySince >= DISPATCH_QUIET_MAX_MS) return;
    } else readySince = null;
    if (opts.deadline !== null && opts.now() >= opts.deadline) {
      throw refusal(
        'agent_not_ready',
        `${handle}: the agent was not ready for a prompt in time (waiting for ${waitingFor}); nothing was written`,
        { handle, waitingFor },
      );
    }
    const wake = opts.deadline === null ? DISPATCH_POLL_MS * 5 : Math.min(DISPATCH_POLL_MS, opts.deadline - opts.now());
    await nextChange(pane, state.kind === 'ready' ? DISPATCH_POLL_MS : wake, opts.signal);
  }
}

/** The pane, held by this delivery, ready at the moment it was taken (loops while another writer got in first). */
async function holdReadyPane(pane: LivePane, handle: string, opts: DeliveryOptions): Promise<InputLease> {
  for (;;) {
    const gaveUp = new AbortController();
    const timer =
      opts.deadline === null ? null : setTimeout(() => gaveUp.abort(), Math.max(0, opts.deadline - opts.now()));
    timer?.unref?.();
    const onAbort = (): void => gaveUp.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    opts.stopping?.addEventListener('abort', onAbort, { once: true });
    // Why: a pane another writer held may have changed (a prompt went in); then quiet is asked again.
    const contended = pane.input.holder() !== null;
    const lease = await pane.input.acquire({ kind: 'dispatch', itemId: opts.itemId ?? null }, gaveUp.signal);
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    opts.stopping?.removeEventListener('abort', onAbort);
    if (!lease) {
      if (stopped(opts)) throw new DeliveryAborted();
      throw refusal(
        'agent_not_ready',
        `${handle}: another prompt held the pane until the deadline; nothing was written`,
        {
          handle,
        },
      );
    }
    // Why: the readiness check that decides the write is made with the pane held, so no other
    // writer can change the answer between the check and the bytes.
    try {
      if (pane.exit) throw notWritable(pane, handle);
      if (stopped(opts)) throw new DeliveryAborted();
      const state = await readiness(pane, opts.now(), opts.now);
      if (state.kind === 'ready' && (!contended || opts.now() - pane.lastOutputAt >= DISPATCH_QUIET_MS)) return lease;
      if (state.kind === 'blocked' && opts.atDialog === 'refuse') {
        throw refusal(state.code, `${handle}: ${state.reason}; nothing was written`, { handle });
      }
    } catch (error) {
      lease.release();
      throw error;
    }
    lease.release();
    await waitReady(pane, handle, opts);
  }
}

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
