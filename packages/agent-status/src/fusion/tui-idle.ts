import type { BlockedReason } from '../blocked-reasons.ts';
import { TUI_IDLE_POLL_INTERVAL_MS, TUI_IDLE_QUIESCENCE_MS } from '../limits.ts';
import { codexComposerAtBottom, findReadyPromptBelow } from '../screen/dismissal.ts';
import type { MatchWindow } from '../screen/match-window.ts';
import { findMenuShape } from '../screen/selection-menus.ts';
import type { PaneEvidence } from '../types.ts';
import { analysePane, type EvaluateOptions } from './evaluate-pane.ts';

/** Result of one tui-idle check; the host owns the overall timeout. */
export type TuiIdleResult =
  | { state: 'satisfied' }
  | { state: 'blocked'; blockedReason: BlockedReason }
  | { state: 'pending'; recheckAt: number };

/** Output-side facts tui-idle needs beyond the pane evidence. */
export interface TuiIdleContext {
  /** Last PTY output, ms; null when none seen. */
  lastOutputAt: number | null;
  /** A prompt was accepted by the agent during this generation. */
  acceptedPromptThisGeneration?: boolean;
  gate?: EvaluateOptions['gate'];
}

const BOTTOM_LINES = 4;

function readyAtBottom(window: MatchWindow): { needsQuiet: boolean } | null {
  const { lines } = window;
  const ready = findReadyPromptBelow(lines, -1);
  if (ready && ready.index >= lines.length - BOTTOM_LINES) {
    return { needsQuiet: ready.kind === 'codex-header' };
  }
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - BOTTOM_LINES; i--) {
    if (lines[i]?.text.startsWith('→ add a follow-up')) return { needsQuiet: false };
  }
  if (codexComposerAtBottom(lines, -1) >= 0) return { needsQuiet: true };
  return null;
}

/**
 * Is the agent in this pane idle at its prompt (§9)? A blocked prompt fails at once; a shell in
 * front never satisfies; weak evidence needs `TUI_IDLE_QUIESCENCE_MS` of quiet; silence alone never
 * satisfies.
 *
 * @example
 * await evaluateTuiIdle(evidence, { lastOutputAt: 1000 }); // { state: 'pending', recheckAt: … }
 */
export async function evaluateTuiIdle(e: PaneEvidence, context: TuiIdleContext): Promise<TuiIdleResult> {
  const analysis = await analysePane(e, { wait: false, ...(context.gate ? { gate: context.gate } : {}) });
  const pending: TuiIdleResult = { state: 'pending', recheckAt: e.now + TUI_IDLE_POLL_INTERVAL_MS };
  // (1) the raw signal: dismissal applies, no timestamp or title rule
  if (analysis.signal) return { state: 'blocked', blockedReason: analysis.signal.reason };
  // (1b) fail closed: a menu-shaped block at the bottom that no rule named
  if (findMenuShape(analysis.window.lines)) return { state: 'blocked', blockedReason: 'agent-interactive-prompt' };
  // (2) permission never satisfies
  if (analysis.verdict.status === 'permission' || e.exited === true) return pending;
  // (2b) an agent reported working (hook, OSC or an explicit title) is not idle, however quiet
  if (analysis.verdict.status === 'working') return pending;
  // (3) a shell in front is no idle agent
  const fg = await analysis.foreground();
  if (fg.shellOwns) return pending;
  const quiet =
    context.acceptedPromptThisGeneration === true ||
    (context.lastOutputAt !== null &&
      Number.isFinite(context.lastOutputAt) &&
      e.now - context.lastOutputAt >= TUI_IDLE_QUIESCENCE_MS);
  // (4) strong evidence
  if (analysis.liveTitle && analysis.title.kind === 'explicit' && analysis.title.status === 'idle') {
    return { state: 'satisfied' };
  }
  if (analysis.explicit?.state === 'done' && analysis.verdict.status === 'idle') return { state: 'satisfied' };
  const ready = readyAtBottom(analysis.window);
  if (ready && (!ready.needsQuiet || quiet)) return { state: 'satisfied' };
  // (5) weak evidence needs quiet
  const weak = analysis.title.kind === 'name-only' || fg.agent !== null;
  if (weak && context.lastOutputAt !== null && quiet) return { state: 'satisfied' };
  return pending;
}
