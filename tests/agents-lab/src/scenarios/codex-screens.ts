import type { AgentScreens } from './agent-screens.ts';

const COMPOSER = /^› /m;
const DIALOG = /Would you like to|Press enter to confirm/i;
/** Codex spins a braille glyph at the start of its title while a turn runs. */
const SPINNER_TITLE = /^[\u2800-\u28ff]/;

/** Codex's screens as its real TUI draws them (0.171.0); its composer stays on screen while it works. */
export const codexScreens: AgentScreens = {
  idle: ({ text, title }) => COMPOSER.test(text) && !DIALOG.test(text) && !SPINNER_TITLE.test(title ?? ''),
  working: ({ text, title }) => SPINNER_TITLE.test(title ?? '') && !DIALOG.test(text),
  toolRunning: ({ text, title }) => SPINNER_TITLE.test(title ?? '') && !DIALOG.test(text),
  trust: /Trust this folder\?/,
  trustYes: /Trust and continue/,
  approval: {
    shell: /Would you like to run the following command\?/,
    edit: /Would you like to make the following edits\?/,
  },
  approveKeys: 'y',
  cancelled: /Conversation interrupted|interrupted/i,
  apiError: /^■ .*(?:error|demand)/im,
  errorReplies: 6,
};
