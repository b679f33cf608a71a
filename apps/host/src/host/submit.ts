import { SUBMIT_ECHO_POLL_MS } from '../constants.ts';
import type { LivePane } from './live-pane.ts';

/** The last characters of a prompt a composer shows once it took the text (wrapping aside). */
const DRAFT_TAIL_CHARS = 24;
/** Placeholders TUIs show instead of a long pasted text (`[Pasted text #1 +12 lines]`, `[Pasted Content 1200 chars]`). */
const PASTE_PLACEHOLDER = /\[Pasted (?:text|Content)[^\]]*\]/i;

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Does the pane's screen show `prompt` as a draft (its tail, whitespace ignored), or a paste placeholder? */
export function draftOnScreen(rows: readonly string[], prompt: string): boolean {
  const screen = rows.join('\n');
  if (PASTE_PLACEHOLDER.test(screen)) return true;
  const tail = squash(prompt).slice(-DRAFT_TAIL_CHARS);
  return tail.length === 0 || squash(screen).includes(tail);
}

/**
 * Resolves once the pane's screen shows the draft (or after `timeoutMs`, or when the pane exits):
 * the submit key is only worth sending once the composer holds the text.
 */
export async function waitForDraft(pane: LivePane, prompt: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await pane.screen.settled();
    if (draftOnScreen(pane.screen.renderedRows(), prompt)) return true;
    if (pane.exit || Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, SUBMIT_ECHO_POLL_MS));
  }
}
