import { SEND_GUARD_RECHECK_INTERVAL_MS, SEND_GUARD_RECHECK_WINDOW_MS } from '../limits.ts';
import { buildMatchWindow } from '../screen/match-window.ts';
import { findMenuShape, type MenuShape } from '../screen/selection-menus.ts';
import type { PaneEvidence, PaneVerdict } from '../types.ts';

/** Refusal codes of the send guard. */
export type SendGuardCode = 'terminal_guard_permission' | 'agent_prompt_blocked' | 'terminal_guard_no_agent';

/** Result of one send-guard check. */
export type SendGuardResult = { ok: true } | { ok: false; code: SendGuardCode } | { retryAt: number };

/**
 * The menu-shaped block at the bottom of a pane's screen (or tail), named by a rule or not: the
 * send guard's fail-closed input. See `findMenuShape` for what counts.
 *
 * @example
 * screenMenuShape({ now: 0, ptyId: 'p', waitBlockedAt: null, screen: ['Pick one?', '❯ 1. a', '  2. b'] });
 * // { kind: 'numbered-choices', line: '❯ 1. a' }
 */
export function screenMenuShape(e: Pick<PaneEvidence, 'screen' | 'tail'>): MenuShape | null {
  return findMenuShape(buildMatchWindow(e).lines);
}

/**
 * May the host type into this pane (§9)? `guard` refuses a pane waiting on a human; `inject`
 * refuses with `agent_prompt_blocked` (zero bytes written). A menu-shaped block at the bottom of the
 * screen (`menu`, from {@link screenMenuShape}) refuses the same way even when no rule named it.
 * With no agent it rechecks every `SEND_GUARD_RECHECK_INTERVAL_MS` until
 * `SEND_GUARD_RECHECK_WINDOW_MS` after the first check.
 *
 * @example
 * evaluateSendGuard({ status: 'permission', isRunningAgent: true }, { mode: 'inject', firstCheckAt: 0, now: 0 });
 * // { ok: false, code: 'agent_prompt_blocked' }
 */
export function evaluateSendGuard(
  verdict: PaneVerdict,
  options: { mode: 'guard' | 'inject'; firstCheckAt: number; now: number; menu?: MenuShape | null },
): SendGuardResult {
  if (verdict.status === 'permission' || (options.menu !== undefined && options.menu !== null)) {
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
