import type { AgentScreens } from './agent-screens.ts';

const COMPOSER = /Type your message/;
const BUSY_DIALOG = /Allow execution|Apply this change|Do you want to proceed/i;
const BUSY = /esc to cancel|Allow execution|Apply this change|Do you want to proceed/i;

/** Gemini CLI's screens as its real TUI draws them (0.61.0). */
export const geminiScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text, title }) => /Working/.test(title ?? '') && !BUSY_DIALOG.test(text),
  toolRunning: ({ text, title }) => /Working/.test(title ?? '') && !BUSY_DIALOG.test(text),
  trust: /Do you trust the files in this folder\?/,
  trustYes: /Trust folder \(/,
  approval: {
    shell: /Allow execution of/,
    edit: /Apply this change\?/,
    write: /Apply this change\?/,
    fetch: /Do you want to proceed\?|Allow execution of|web_fetch|WebFetch/i,
  },
  approveKeys: '\r',
  cancelled: /Request cancelled|cancelled/i,
  apiError: /✕ \[API Error: .*lab: scripted API error/,
  // Why: Gemini CLI 0.61.0's TUI retried a 500 hundreds of times without showing it (its -p mode
  // stops after maxAttempts); a 400 is never retried and reaches the screen at once.
  errorStatus: 400,
  errorReplies: 4,
};
