import { normalizePromptText } from '@orca/agent-status/submit';
import { PROMPT_MAX_BYTES } from '../constants.ts';
import { refusal } from '../errors.ts';

/**
 * Refuses a prompt no agent should be sent: one with no text once blanks and control characters are
 * gone (`prompt_empty`), or one over {@link PROMPT_MAX_BYTES} (`prompt_too_large`). Nothing is written.
 */
export function checkPrompt(prompt: string): void {
  if (normalizePromptText(prompt).length === 0) {
    throw refusal('prompt_empty', 'the prompt is empty (only blanks or control characters); nothing was sent');
  }
  const bytes = Buffer.byteLength(prompt);
  if (bytes > PROMPT_MAX_BYTES) {
    throw refusal(
      'prompt_too_large',
      `the prompt is ${bytes} bytes, over the limit of ${PROMPT_MAX_BYTES} bytes (PROMPT_MAX_BYTES); send it as a file the agent reads`,
      { bytes, max: PROMPT_MAX_BYTES },
    );
  }
}
