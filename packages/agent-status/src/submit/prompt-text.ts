import { asObject, stringField } from '../hooks/payload-fields.ts';
import { isPromptSubmitEvent } from './verify.ts';

/**
 * Payload fields a prompt-submit hook carries its prompt in, first match wins. Claude Code,
 * Codex, Gemini CLI (`BeforeAgent`), Cursor, Droid and Copilot CLI all use `prompt`; the others
 * are spellings seen in Claude-dialect forks.
 */
export const PROMPT_TEXT_FIELDS = ['prompt', 'user_prompt', 'userPrompt', 'prompt_text', 'promptText'] as const;

/**
 * The prompt a hook event says the agent took: `undefined` when the event is not of the agent's
 * prompt-submit class, `null` when it is but carries no prompt text, else the text as sent.
 *
 * @example
 * submittedPromptOf('claude', 'UserPromptSubmit', { prompt: 'fix it' }); // 'fix it'
 * submittedPromptOf('amp', 'agent.start', {}); // null
 * submittedPromptOf('claude', 'Stop', { prompt: 'x' }); // undefined
 */
export function submittedPromptOf(
  source: string,
  event: string | undefined,
  payload: unknown,
): string | null | undefined {
  if (!isPromptSubmitEvent(source, event)) return undefined;
  const object = asObject(payload);
  return (object && stringField(object, ...PROMPT_TEXT_FIELDS)) ?? null;
}

// Why: ESC sequences (a paste's own markers among them) and other controls are keys, not prompt text.
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/**
 * The wrapper Claude Code 2.1.332 puts around a long pasted text in its UserPromptSubmit `prompt`
 * (`\n\n<pasted_content id="07fb">\n…\n</pasted_content id="07fb">\n`, seen in the agents lab;
 * 2.1.197 sends the text bare). The text inside is what was typed.
 */
const PASTE_WRAPPER = /<\/?pasted_content\b[^>]{0,64}>/g;

/**
 * A prompt's text as compared between what was typed and what the agent's hook reports: Unicode
 * NFC, escape sequences, control characters and paste wrappers (Claude Code's `<pasted_content>`)
 * removed, every run of whitespace (newlines, CR, tabs) one space, trimmed. TUIs turn pasted CR
 * into LF, trim, expand tabs or wrap a paste; none of that makes it another prompt.
 *
 * @example
 * normalizePromptText('  fix\r\n\tthe tests ') // 'fix the tests'
 */
export function normalizePromptText(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, '')
    .replace(PASTE_WRAPPER, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .normalize('NFC');
}

/**
 * Is `reported` (a prompt hook's text) the prompt `typed`? Whole-text equality after
 * {@link normalizePromptText}: a hook holding two prompts, or another prompt, is not this one.
 *
 * @example
 * samePrompt('fix the tests', 'fix the tests\n'); // true
 * samePrompt('fix the tests', 'fix the tests\nand the docs'); // false
 */
export function samePrompt(typed: string, reported: string): boolean {
  const a = normalizePromptText(typed);
  return a.length > 0 && a === normalizePromptText(reported);
}
