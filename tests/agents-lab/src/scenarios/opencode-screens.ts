import type { AgentScreens } from './agent-screens.ts';

const COMPOSER = /Ask anything|Build · /;
const BUSY = /esc interrupt|Permission required|△/i;

/** opencode's screens as its real TUI draws them (1.18.33). */
export const opencodeScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => /esc interrupt/i.test(text) && !/Permission required/i.test(text),
  toolRunning: ({ text }) => /esc interrupt/i.test(text) && !/Permission required/i.test(text),
  // Why: opencode 1.18.33 asks no workspace-trust or API-key question at startup.
  approval: {
    shell: /Permission required/i,
    edit: /Permission required/i,
    write: /Permission required/i,
    fetch: /Permission required/i,
  },
  approveKeys: '\r',
  // Why: the engine's spec keeps `codex-interactive-prompt` for a `Permission required` dialog with
  // allow/reject choices (old clients know it); the status is `permission` all the same.
  approvalReason: 'codex-interactive-prompt',
  // Why: the first Esc arms the interrupt ("esc again to interrupt"), the second stops the turn.
  interruptPresses: 2,
  cancelled: /interrupted|aborted/i,
  apiError: /lab: scripted API error/,
  // Why: opencode retries a 5xx with backoff for as long as it lasts; a 400 ends the turn with it shown.
  errorStatus: 400,
  errorReplies: 6,
};
