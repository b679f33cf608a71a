import type { AgentScreens } from './agent-screens.ts';

// The composer: a prompt line right under the box rule (empty, a draft or a placeholder).
const COMPOSER = /^─{20,}\s*\n[>❯](?:\s.*)?$/m;
const BUSY = /esc to interrupt|Running…|Waiting…|Do you want to|Esc to cancel/;

/** Claude Code's screens as its real TUI draws them (2.1.197 and 2.1.332). */
export const claudeScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => /esc to interrupt/i.test(text),
  toolRunning: ({ text }) => /Running…|esc to interrupt/.test(text),
  trust: /Quick safety check|trust this folder/i,
  trustYes: /Yes, I trust this folder/,
  apiKey: /Detected a custom API key/i,
  apiKeyYes: /^\s*[❯›>]?\s*(?:1\.\s*)?Yes\b/,
  startupQuestions: [
    {
      name: 'startup-auto-mode',
      marker: /Make auto mode your default permission mode\?/,
      choose: /No, keep manual mode/,
    },
  ],
  approval: {
    shell: /Do you want to proceed\?/,
    edit: /Do you want to make this edit/,
    write: /Do you want to create/,
    fetch: /Do you want to allow Claude to fetch/,
  },
  approveKeys: '\r',
  cancelled: /Interrupted/,
  apiError: /API Error: 500 lab: scripted API error/,
  errorReplies: 4,
  readBeforeEdit: true,
};
