import type { AgentScreens } from './tour.ts';

const COMPOSER = /^› /m;
const BUSY = /esc to interrupt|Working|Would you like to|Press enter to confirm/i;

/** Codex's screens as its real TUI draws them (0.171.0). */
export const codexScreens: AgentScreens = {
  idle: (text) => COMPOSER.test(text) && !BUSY.test(text),
  working: /esc to interrupt|Working/i,
  toolRunning: /Running|esc to interrupt/i,
  trust: /Trust this folder\?/,
  trustYes: /Trust and continue/,
  approval: {
    shell: /Would you like to run the following command\?/,
    edit: /Would you like to make the following edits\?/,
  },
  approveKeys: 'y',
  cancelled: /Conversation interrupted|interrupted/i,
  apiError: /error|500/i,
  errorReplies: 6,
};
