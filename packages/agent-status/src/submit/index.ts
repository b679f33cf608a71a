export { normalizePromptText, PROMPT_TEXT_FIELDS, samePrompt, submittedPromptOf } from './prompt-text.ts';
export {
  composerInput,
  DEFAULT_SUBMIT_STRATEGY,
  PASTE_END,
  PASTE_START,
  SUBMIT_STRATEGIES,
  type SubmitStrategy,
  submitStrategy,
} from './strategy.ts';
export {
  COMPOSER_PLACEHOLDERS,
  composerDraft,
  composerRows,
  draftInComposer,
  isPromptSubmitEvent,
  PROMPT_SUBMIT_EVENTS,
} from './verify.ts';
