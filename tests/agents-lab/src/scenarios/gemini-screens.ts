import type { AgentScreens } from './tour.ts';

const COMPOSER = /Type your message/;
const BUSY = /esc to cancel|Allow execution|Apply this change|Do you want to proceed/i;

/** Gemini CLI's screens as its real TUI draws them (0.61.0). */
export const geminiScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => /esc to cancel/i.test(text),
  toolRunning: ({ text }) => /esc to cancel|Executing/i.test(text),
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
  apiError: /error|500/i,
  errorReplies: 12,
};
