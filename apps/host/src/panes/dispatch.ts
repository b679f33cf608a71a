import {
  type AgentId,
  buildMatchWindow,
  composerAtBottom,
  composerInput,
  draftInComposer,
  submitStrategy,
} from '@orca/agent-status';
import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';
import {
  DISPATCH_DEFAULT_TIMEOUT_MS,
  DISPATCH_POLL_MS,
  DISPATCH_QUIET_MAX_MS,
  DISPATCH_QUIET_MS,
  DISPATCH_WORKING_WAIT_MS,
  SUBMIT_ECHO_WAIT_MS,
  SUBMIT_RETRY_AFTER_MS,
} from '../constants.ts';
import { refusal } from '../errors.ts';
import type { LivePane } from './live-pane.ts';

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
  /** Submit keys sent (2 when the first left the draft in the composer). */
  readonly submitKeys: number;
}

/** Options of {@link dispatchPrompt}. */
export interface DispatchOptions {
  readonly now: () => number;
  readonly commandHooks: Pick<HostCommandHooks, 'beforeSubmitPrompt'>;
  /** Longest wait for readiness plus submission (ms). */
  readonly timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The agent in the pane: from its hooks, else the foreground process as recognised. */
async function paneAgent(pane: LivePane): Promise<{ agent: AgentId | null; realTui: boolean }> {
  const fg = await pane.status.foregroundAgent();
  const hooked = pane.status.agent();
  return { agent: hooked ?? fg, realTui: fg !== null && (hooked === null || hooked === fg) };
}

/**
 * Waits until the pane may take a prompt: the send guard passes, tui-idle is satisfied and — when a
 * known agent's real TUI is in front — its composer is at the bottom. A dialog or menu refuses at
 * once (`agent_prompt_blocked`, zero bytes); a pane still booting at the deadline refuses with
 * `agent_not_ready`.
 */
async function waitReady(pane: LivePane, handle: string, opts: DispatchOptions, deadline: number): Promise<void> {
  const firstCheckAt = opts.now();
  let readySince: number | null = null;
  for (;;) {
    if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`);
    const verdict = await pane.status.evaluate();
    const guard = pane.status.sendGuard(verdict, firstCheckAt);
    if ('ok' in guard && !guard.ok) {
      throw refusal(guard.code as 'agent_prompt_blocked', `${handle}: ${guard.code}; nothing was written`, { handle });
    }
    if (!('retryAt' in guard)) {
      const idle = await pane.status.tuiIdle({
        lastOutputAt: pane.lastOutputAt,
        acceptedPromptThisGeneration: pane.acceptedPrompt,
      });
      if (idle.state === 'blocked') {
        throw refusal('agent_prompt_blocked', `${handle}: ${idle.blockedReason}; nothing was written`, { handle });
      }
      const { agent, realTui } = await paneAgent(pane);
      const lines = buildMatchWindow({ screen: pane.screen.renderedRows() }).lines;
      const composer = !realTui || agent === null || composerAtBottom(agent, lines);
      if (idle.state === 'satisfied' && composer) {
        readySince ??= opts.now();
        // Why: a TUI still setting up (Gemini CLI right after boot) redraws and can drop part of a
        // paste; wait for its output to pause, but never longer than DISPATCH_QUIET_MAX_MS.
        const quiet = opts.now() - pane.lastOutputAt >= DISPATCH_QUIET_MS;
        if (quiet || opts.now() - readySince >= DISPATCH_QUIET_MAX_MS) return;
      } else readySince = null;
    }
    if (opts.now() >= deadline) {
      throw refusal('agent_not_ready', `${handle}: the agent was not ready for a prompt in time; nothing was written`, {
        handle,
      });
    }
    await sleep(DISPATCH_POLL_MS);
  }
}

/**
 * Delivers `prompt` to the agent in `pane` and proves it arrived: waits for readiness, runs the
 * user's `beforeSubmitPrompt` command hooks, writes the text (a bracketed paste when the agent
 * enabled it), sends the submit key once the draft is on screen and the agent's paste window has
 * passed, then waits for the agent's prompt hook — or its screen leaving the draft while it works.
 * A draft still in the composer gets one more submit key, never the text again. Refusals before
 * the text is written leave zero bytes; a prompt not proven submitted by the deadline refuses with
 * `prompt_not_submitted` naming the last stage reached.
 */
export async function dispatchPrompt(
  pane: LivePane,
  handle: string,
  prompt: string,
  opts: DispatchOptions,
): Promise<DispatchReceipt> {
  const start = opts.now();
  const deadline = start + (opts.timeoutMs ?? DISPATCH_DEFAULT_TIMEOUT_MS);
  const stages: DispatchStage[] = [];
  await waitReady(pane, handle, opts, deadline);
  const gate = await opts.commandHooks.beforeSubmitPrompt(pane.record, prompt);
  if (gate.blocked) throw refusal('hook_blocked', gate.message, { handle });
  // Why: hooks take time; the agent may have raised a prompt meanwhile (verification re-check).
  const recheck = pane.status.sendGuard(await pane.status.evaluate(), opts.now());
  if ('ok' in recheck && !recheck.ok) {
    throw refusal(recheck.code as 'agent_prompt_blocked', `${handle}: ${recheck.code}; nothing was written`);
  }
  stages.push({ stage: 'ready', at: opts.now() });

  const { agent } = await paneAgent(pane);
  const strategy = submitStrategy(agent);
  await pane.screen.settled();
  const text = composerInput(prompt, strategy, pane.screen.bracketedPaste());
  const hookBefore = pane.lastPromptHookAt;
  pane.write(text);
  let bytes = Buffer.byteLength(text);
  stages.push({ stage: 'input_written', at: opts.now() });

  const draftShown = async (): Promise<boolean> => {
    await pane.screen.settled();
    return draftInComposer(pane.screen.renderedRows(), prompt, agent);
  };
  for (const echoBy = opts.now() + SUBMIT_ECHO_WAIT_MS; opts.now() < echoBy && !(await draftShown()); ) {
    if (pane.exit) break;
    await sleep(DISPATCH_POLL_MS / 4);
  }
  await sleep(strategy.pasteQuietMs);
  let submitKeys = 0;
  const submit = (): void => {
    pane.write(strategy.submitKey);
    bytes += Buffer.byteLength(strategy.submitKey);
    submitKeys += 1;
  };
  if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`);
  submit();
  pane.acceptedPrompt = true;
  const submittedAt = opts.now();

  let submittedBy: DispatchReceipt['submittedBy'] | null = null;
  while (submittedBy === null) {
    if (pane.lastPromptHookAt !== hookBefore) submittedBy = 'hook';
    else {
      const verdict = pane.verdict;
      const draft = await draftShown();
      if (!draft && verdict?.status === 'working') submittedBy = 'screen';
      else if (draft && submitKeys === 1 && opts.now() - submittedAt >= SUBMIT_RETRY_AFTER_MS) submit();
    }
    if (submittedBy !== null) break;
    if (pane.exit || opts.now() >= deadline) {
      const last = stages[stages.length - 1];
      throw refusal(
        'prompt_not_submitted',
        `${handle}: the agent did not take the prompt; last stage ${last?.stage ?? 'none'} at +${(last?.at ?? start) - start} ms`,
        { handle, stages },
      );
    }
    await sleep(DISPATCH_POLL_MS / 2);
  }
  stages.push({ stage: 'submitted', at: opts.now() });
  for (const until = opts.now() + DISPATCH_WORKING_WAIT_MS; opts.now() < until; await sleep(DISPATCH_POLL_MS / 2)) {
    if (pane.verdict?.status === 'working') {
      stages.push({ stage: 'working', at: opts.now() });
      break;
    }
    if (pane.exit) break;
  }
  return { bytes, stages, submittedBy, submitKeys };
}
