import { type AgentId, buildMatchWindow, composerAtBottom, composerDraft, composerKnown } from '@orca/agent-status';
import {
  DISPATCH_POLL_MS,
  DISPATCH_QUIET_MAX_MS,
  DISPATCH_QUIET_MS,
  TYPING_QUIET_BEFORE_DELIVERY_MS,
} from '../constants.ts';
import { refusal } from '../errors.ts';
import { DeliveryAborted, type DeliveryOptions } from './delivery-types.ts';
import type { LivePane } from './live-pane.ts';
import { nextChange } from './pane-change.ts';
import type { InputLease } from './pane-input.ts';

/*
 * Readiness of a pane for a prompt delivery: the agent in front, the checks before the text is
 * written, and taking the pane's one writer while it is still ready.
 */

/** The agent in the pane: from its hooks, else the foreground process as recognised. */
export async function paneAgent(pane: LivePane): Promise<{ agent: AgentId | null; realTui: boolean }> {
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
 * is at the bottom (when the engine knows what it looks like) and holds no draft (a prompt pasted onto a draft goes out as one message with it).
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
    // Why: an agent whose composer the engine cannot see would never be ready by this check.
    if (composerKnown(agent) && !composerAtBottom(agent, buildMatchWindow({ screen: rows }).lines)) {
      return { kind: 'pending', reason: 'the composer is not on screen' };
    }
  }
  return { kind: 'ready' };
}

export function notWritable(pane: LivePane, handle: string): Error {
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
export async function waitReady(pane: LivePane, handle: string, opts: DeliveryOptions): Promise<void> {
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
export async function holdReadyPane(pane: LivePane, handle: string, opts: DeliveryOptions): Promise<InputLease> {
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
