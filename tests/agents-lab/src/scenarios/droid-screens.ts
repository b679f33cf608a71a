import type { AgentScreens } from './agent-screens.ts';

// Why: Droid keeps its boxed `>` composer while it works (`> Enter to steer · …`); at rest it holds a
// tip (`> Try "…"`) or nothing.
const COMPOSER = /^│ >(?! Enter to steer)/m;
const BUSY = /\(Press ESC to stop\)|Trust this folder\?|Enter select\s+Esc cancel/;
const WORKING = /\(Press ESC to stop\)/;
const APPROVAL = /Yes, allow[\s\S]*No, cancel[\s\S]*Enter select\s+Esc cancel/;

/** Droid's screens as its real TUI draws them (0.225.2, airgap mode). */
export const droidScreens: AgentScreens = {
  idle: ({ text }) => COMPOSER.test(text) && !BUSY.test(text),
  working: ({ text }) => WORKING.test(text) && !APPROVAL.test(text),
  toolRunning: ({ text }) => /Executing\.\.\./.test(text) && WORKING.test(text) && !APPROVAL.test(text),
  trust: /Trust this folder\?/,
  trustYes: /\d\. Trust this folder/,
  // Why: airgap mode disables `FetchUrl` (a server-side tool: 0.225.2 drops it from the tool list
  // when `airgapEnabled`), and without airgap mode the TUI wants a Factory login; no fetch approval.
  approval: { shell: APPROVAL, edit: APPROVAL, write: APPROVAL },
  approveKeys: '\r',
  cancelled: /Request cancelled by user/,
  apiError: /lab: scripted API error/,
  errorStatus: 400,
  errorReplies: 6,
};
