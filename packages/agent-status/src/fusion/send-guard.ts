import { SEND_GUARD_RECHECK_INTERVAL_MS, SEND_GUARD_RECHECK_WINDOW_MS } from '../limits.ts';
import type { PaneVerdict } from '../types.ts';

/** Refusal codes of the send guard. */
export type SendGuardCode = 'terminal_guard_permission' | 'agent_prompt_blocked' | 'terminal_guard_no_agent';

/** Result of one send-guard check. */
export type SendGuardResult = { ok: true } | { ok: false; code: SendGuardCode } | { retryAt: number };

/**
 * May the host type into this pane (§9)? `guard` refuses a pane waiting on a human; `inject`
 * refuses with `agent_prompt_blocked` (zero bytes written). With no agent it rechecks every
 * `SEND_GUARD_RECHECK_INTERVAL_MS` until `SEND_GUARD_RECHECK_WINDOW_MS` after the first check.
 *
 * @example
 * evaluateSendGuard({ status: 'permission', isRunningAgent: true }, { mode: 'inject', firstCheckAt: 0, now: 0 });
 * // { ok: false, code: 'agent_prompt_blocked' }
 */
export function evaluateSendGuard(
  verdict: PaneVerdict,
  options: { mode: 'guard' | 'inject'; firstCheckAt: number; now: number },
): SendGuardResult {
  if (verdict.status === 'permission') {
    return { ok: false, code: options.mode === 'guard' ? 'terminal_guard_permission' : 'agent_prompt_blocked' };
  }
  if (!verdict.isRunningAgent) {
    if (options.now - options.firstCheckAt >= SEND_GUARD_RECHECK_WINDOW_MS) {
      return { ok: false, code: 'terminal_guard_no_agent' };
    }
    return { retryAt: options.now + SEND_GUARD_RECHECK_INTERVAL_MS };
  }
  return { ok: true };
}
