import type { AgentScreens, ScreenState } from './agent-screens.ts';

// Why: Copilot keeps its `❯` composer on screen while it works; the status line under it says which:
// `◉ Working · 108 B esc esc interrupt` while it works, its key hints (`… · / commands · ? help`) at rest.
const WORKING_LINE = /^ \S Working\b.*\besc (?:esc|again)\b/m;
const HINTS_LINE = /· \/ commands · \? help\b/;
const DIALOG = /Do you want to|Do you trust the files/;

const statusLine = ({ text }: ScreenState): string => text.trimEnd().split('\n').at(-1) ?? '';
const working = (s: ScreenState): boolean => WORKING_LINE.test(statusLine(s)) && !DIALOG.test(s.text);

/** Copilot CLI's screens as its real TUI draws them (1.0.102, BYOK offline against the Chat stand-in). */
export const copilotScreens: AgentScreens = {
  idle: (s) => /^❯/m.test(s.text) && HINTS_LINE.test(statusLine(s)) && !DIALOG.test(s.text),
  working,
  toolRunning: working,
  trust: /Do you trust the files in this folder\?/,
  trustYes: /Yes, and remember this folder/,
  approval: {
    shell: /Do you want to run this command\?/,
    edit: /Do you want to edit \S+README\.md\?/,
    write: /Do you want to create \S+\?/,
    // Why: `COPILOT_OFFLINE=true` disables its web tools (`copilot help environment`): no web_fetch is
    // offered to the model, so there is no fetch approval offline.
  },
  approveKeys: '\r',
  // Why: `esc esc interrupt`: one Esc only arms it (`esc again to interrupt`, for about half a second).
  interruptPresses: 2,
  // Why: a denied approval also ends in `Operation cancelled by user`; the interrupt's is the newest
  // entry of the transcript, right above the working directory line over the composer.
  cancelled: /● Operation cancelled by user[\s┃]*\/\S+\n─/,
  apiError: /400 lab: scripted API error/,
  errorStatus: 400,
  errorReplies: 6,
};
