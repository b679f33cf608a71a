import type { PaneAnalysis } from '@orca/agent-status';

/**
 * True when a hook row decided the verdict on its own (working, done, or a permission request
 * within its dialog grace), so it may be published before the screen worker parsed the pane's
 * latest output: newer screen text can only correct it afterwards. A verdict the screen, a title
 * or the foreground process decided is not the hook's to publish early.
 *
 * @example
 * hookDecidesAlone(await status.analyse()) // true for a fresh UserPromptSubmit row
 */
export function hookDecidesAlone(analysis: Pick<PaneAnalysis, 'rule' | 'explicit'>): boolean {
  return analysis.rule === 'hook-row' && analysis.explicit?.via === 'hook';
}
