import type { WaitResult } from '@orca/wire/contract';
import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../constants.ts';
import { refusal } from '../errors.ts';
import type { Deliveries } from './deliveries.ts';
import { DeliveryAborted, DeliveryInterrupted, type DispatchReceipt } from './delivery-types.ts';
import { dispatchPrompt } from './dispatch.ts';
import type { LivePane } from './live-pane.ts';
import { nextChange } from './pane-change.ts';
import { checkPrompt } from './prompt-limits.ts';

/** Writing into live panes and waiting on them: raw send, guarded dispatch, tui-idle / exit waits. */
export interface PaneInjection {
  /**
   * Raw bytes into the PTY (no guard); returns the UTF-8 byte count. Refused with
   * `terminal_input_locked` (zero bytes) while a prompt delivery holds the pane.
   */
  send(handle: string, text: string): number;
  dispatch(handle: string, prompt: string, opts?: { timeoutMs?: number }): Promise<DispatchReceipt>;
  wait(handle: string, mode: 'tui-idle' | 'exit', timeoutMs?: number): Promise<WaitResult>;
}

async function waitForExit(pane: LivePane, handle: string, timeoutMs: number): Promise<WaitResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const exit = await Promise.race([
    pane.exited(),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!exit) throw refusal('timeout', `${handle} did not exit within ${Math.round(timeoutMs / 1000)} s`);
  return { satisfied: true, exit };
}

async function waitForTuiIdle(
  pane: LivePane,
  handle: string,
  timeoutMs: number,
  now: () => number,
): Promise<WaitResult> {
  const deadline = now() + timeoutMs;
  for (;;) {
    await pane.screen.settled();
    const idle = await pane.status.tuiIdle({
      lastOutputAt: pane.lastOutputAt,
      acceptedPromptThisGeneration: pane.acceptedPrompt,
    });
    if (idle.state === 'satisfied') return { satisfied: true };
    if (idle.state === 'blocked') return { satisfied: false, blockedReason: idle.blockedReason };
    if (pane.exit) return { satisfied: false, exit: pane.exit };
    if (now() >= deadline) throw refusal('timeout', `${handle} was not idle within ${Math.round(timeoutMs / 1000)} s`);
    await nextChange(pane, Math.min(idle.recheckAt, deadline) - now());
  }
}

/** Builds the injection surface over `livePane` (which refuses a stale handle). */
export function createPaneInjection(o: {
  livePane: (handle: string) => LivePane;
  now: () => number;
  commandHooks: Pick<HostCommandHooks, 'beforeSubmitPrompt'>;
  deliveries: Deliveries;
}): PaneInjection {
  return {
    send(handle, text) {
      const pane = o.livePane(handle);
      if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`);
      if (!pane.input.offer(text)) {
        const holder = pane.input.holder();
        throw refusal(
          'terminal_input_locked',
          `${handle}: a prompt is being delivered (since +${holder ? o.now() - holder.since : 0} ms); nothing was written, send again after it`,
          { handle, holder },
        );
      }
      return Buffer.byteLength(text);
    },
    async dispatch(handle, prompt, opts = {}) {
      checkPrompt(prompt);
      const pane = o.livePane(handle);
      if (pane.exit) throw refusal('terminal_guard_not_writable', `pane ${handle} has exited`, { handle });
      try {
        return await o.deliveries.track(
          dispatchPrompt(pane, handle, prompt, {
            now: o.now,
            commandHooks: o.commandHooks,
            stopping: o.deliveries.stopping,
            ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
          }),
        );
      } catch (error) {
        if (error instanceof DeliveryAborted) {
          throw refusal('delivery_interrupted', `${handle}: the host is stopping; nothing was written`, { handle });
        }
        if (error instanceof DeliveryInterrupted) {
          throw refusal('delivery_interrupted', `${handle}: ${error.message}`, { handle, written: true });
        }
        throw error;
      }
    },
    wait(handle, mode, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS) {
      const pane = o.livePane(handle);
      return mode === 'exit' ? waitForExit(pane, handle, timeoutMs) : waitForTuiIdle(pane, handle, timeoutMs, o.now);
    },
  };
}
