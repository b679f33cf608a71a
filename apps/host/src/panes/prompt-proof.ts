import { createHash } from 'node:crypto';
import { normalizePromptText, samePrompt } from '@orca/agent-status/submit';
import type { PromptHookEntry } from './prompt-hooks.ts';

/** How a prompt hook proved a delivery: its text is this prompt's, or it carries no text at all. */
export type PromptProof = 'text' | 'event';

/**
 * Reads the prompt hooks that arrived after a prompt was written: the first one carrying this
 * prompt's text proves it (`text`); failing that, one carrying no text (an agent whose hook has no
 * prompt field) proves it (`event`: the writer lock kept every other prompt out); hooks carrying
 * another prompt's text are counted as `foreign` and prove nothing.
 *
 * @example
 * promptProof([{ seq: 1, at: 0, text: 'other' }, { seq: 2, at: 1, text: 'mine' }], 'mine'); // { proof: 'text', foreign: 1 }
 */
export function promptProof(
  hooks: readonly PromptHookEntry[],
  prompt: string,
): { proof: PromptProof | null; foreign: number } {
  let foreign = 0;
  let untexted = false;
  for (const hook of hooks) {
    if (hook.text === null) untexted = true;
    else if (samePrompt(prompt, hook.text)) return { proof: 'text', foreign };
    else foreign += 1;
  }
  return { proof: untexted ? 'event' : null, foreign };
}

/**
 * SHA-256 (hex) of a prompt as hooks are compared with it ({@link normalizePromptText}): the
 * identity a receipt names.
 */
export function promptDigest(prompt: string): string {
  return createHash('sha256').update(normalizePromptText(prompt)).digest('hex');
}
