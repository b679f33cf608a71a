import type { AgentScreens } from './agent-screens.ts';

// Why: after a cancelled turn Qwen Code puts the prompt back into the composer (`> <prompt>`).
const COMPOSER = /Type your message|^> \S/m;
const BUSY_DIALOG = /Allow execution|Apply this change|Do you want to proceed/i;
const BUSY = /esc to cancel|Allow execution|Apply this change|Do you want to proceed/i;

/** Qwen Code's screens as its real TUI draws them (0.24.4; Gemini CLI's layout). */
export const qwenScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => /esc to cancel/i.test(text) && !BUSY_DIALOG.test(text),
  toolRunning: ({ text }) => /esc to cancel/i.test(text) && !BUSY_DIALOG.test(text),
  trust: /Do you trust (?:the files in )?this folder\?/i,
  trustYes: /Trust folder/,
  approval: {
    shell: /Allow execution of|Do you want to proceed/i,
    edit: /Apply this change\?/,
    write: /Apply this change\?/,
    fetch: /Do you want to proceed\?|Allow execution of/i,
  },
  approveKeys: '\r',
  // Why: a cancelled turn's prompt comes back into the composer; Ctrl+U empties it.
  clearDraftKeys: '\x15',
  // Why: 0.24.4 refuses to edit a file it has not read in the session.
  readBeforeEdit: true,
  // Why: 0.24.4 refuses `sleep N && …` ("Run blocking commands in the background").
  slowToolWait: `node -e "setTimeout(() => {}, 4000)"`,
  cancelled: /Request cancelled|cancelled/i,
  apiError: /lab: scripted API error/,
  errorStatus: 400,
  errorReplies: 6,
};
