import type { AgentId } from '../agent-ids.ts';

/**
 * How an agent's TUI takes a prompt typed into its PTY: which key submits, how the text goes in,
 * and how long after the text the submit key must wait to be read as a key press rather than as
 * part of the paste.
 */
export interface SubmitStrategy {
  /** Bytes of the key that submits the composer's draft. */
  readonly submitKey: string;
  /** Wrap the text in bracketed-paste markers when the agent enabled DECSET 2004. */
  readonly bracketedPaste: boolean;
  /**
   * Quiet after the draft appeared before the submit key is sent (ms): TUIs fold an Enter that
   * follows other input within a short burst into the paste (a newline, not a submit).
   */
  readonly pasteQuietMs: number;
}

/** What an unknown agent gets: Enter, bracketed paste when enabled, a quiet gap above every burst window seen. */
export const DEFAULT_SUBMIT_STRATEGY: SubmitStrategy = Object.freeze({
  submitKey: '\r',
  bracketedPaste: true,
  pasteQuietMs: 150,
});

const GEMINI_FAMILY: SubmitStrategy = Object.freeze({ ...DEFAULT_SUBMIT_STRATEGY, pasteQuietMs: 200 });

/**
 * Per-agent strategies, from the real CLIs (agents lab): Gemini CLI 0.61.0 turns an Enter within
 * 30 ms of the previous key into a newline (`FAST_RETURN_TIMEOUT`); Codex 0.171.0 keeps an Enter
 * that arrives in the same write as the text; Claude Code takes either.
 */
export const SUBMIT_STRATEGIES: Readonly<Partial<Record<AgentId, SubmitStrategy>>> = Object.freeze({
  claude: DEFAULT_SUBMIT_STRATEGY,
  codex: DEFAULT_SUBMIT_STRATEGY,
  gemini: GEMINI_FAMILY,
  // Why: Qwen Code forks Gemini CLI's input handling (its composer and keys are Gemini's).
  qwen: GEMINI_FAMILY,
});

/**
 * The submit strategy of `agent` (the default for an unknown or absent agent).
 *
 * @example
 * submitStrategy('gemini').pasteQuietMs; // 200
 */
export function submitStrategy(agent: AgentId | null | undefined): SubmitStrategy {
  return (agent ? SUBMIT_STRATEGIES[agent] : undefined) ?? DEFAULT_SUBMIT_STRATEGY;
}

/** Bracketed-paste markers (DECSET 2004). */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/**
 * The bytes that put `text` into a composer: a bracketed paste when the strategy uses it and the
 * agent enabled the mode, else the text as typed. Paste end markers inside the text are removed
 * (they would end the paste early and type the rest as keys).
 */
export function composerInput(text: string, strategy: SubmitStrategy, bracketedPasteEnabled: boolean): string {
  if (!strategy.bracketedPaste || !bracketedPasteEnabled) return text;
  return `${PASTE_START}${text.split(PASTE_END).join('')}${PASTE_END}`;
}
