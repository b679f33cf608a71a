import type { AgentScreens } from './tour.ts';

const COMPOSER = /Ask anything|Build · /;
const BUSY = /esc interrupt|Permission required|△/i;

/** opencode's screens as its real TUI draws them (1.18.33). */
export const opencodeScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => /esc interrupt/i.test(text) && !/Permission required/i.test(text),
  toolRunning: ({ text }) => /esc interrupt/i.test(text) && !/Permission required/i.test(text),
  trust: /Do you trust/i,
  trustYes: /Yes/,
  approval: {
    shell: /Permission required/i,
    edit: /Permission required/i,
    write: /Permission required/i,
    fetch: /Permission required/i,
  },
  approveKeys: '\r',
  cancelled: /interrupted|aborted/i,
  apiError: /lab: scripted API error/,
  errorReplies: 6,
};
