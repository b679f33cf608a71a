import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBlockedSignal } from './blocked-signal.ts';
import { windowFromScreen } from './match-window.ts';
import { findMenuShape, matchApprovalMenu, matchSelectionMenu } from './selection-menus.ts';

const lines = (rows: string[]) => windowFromScreen(rows).lines;
const reason = (rows: string[]) => findBlockedSignal(windowFromScreen(rows))?.reason ?? null;

// Shapes of the real dialogs (agents lab), with their own words.
const CLAUDE_BASH_FOOTER = [
  ' Bash command',
  '   echo hi > out.txt',
  '   Run a command',
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. Yes, and always allow access to proj/ from this project',
  '   3. No',
  '',
  ' Esc to cancel · Tab to amend · ctrl+e to explain',
];
const CODEX_APPROVAL = [
  '  Would you like to run the following command?',
  '  Environment: local',
  '  Reason: Run a command the task needs',
  '  $ echo hi > out.txt',
  '› 1. Yes, proceed (y)',
  "  2. Yes, and don't ask again for commands that start with `echo hi > out.txt` (p)",
  '  3. No, and tell Codex what to do differently (esc)',
  '  Press enter to confirm or esc to cancel',
];
const GEMINI_CONFIRM = [
  '╭──────────────────────────────────────╮',
  '│ ? Shell  echo hi > out.txt           │',
  '│ Allow execution of [Shell]?          │',
  '│ Redirection detected. To auto-accept, press Shift+Tab │',
  '│ ● 1. Allow once                      │',
  '│   2. Allow for this session          │',
  '│   3. No, suggest changes (esc)       │',
  '╰──────────────────────────────────────╯',
];
const CLAUDE_API_KEY = [
  '  Detected a custom API key in your environment',
  '  ANTHROPIC_API_KEY: sk-ant-...key',
  '  Do you want to use this API key?',
  '    Yes',
  '  ❯ No (recommended)',
  '  Enter to confirm · Esc to cancel',
];
const CLAUDE_AUTO_MODE = [
  '  Make auto mode your default permission mode?',
  '  Auto mode lets Claude handle permission prompts automatically.',
  '  ❯ Yes, set auto mode as my default permission mode',
  '    No, keep manual mode',
];
const CODEX_IDLE_AFTER_QUESTION = [
  '• Would you like me to run the tests?',
  '',
  '› Ask Codex to do anything',
  '',
  '  gpt-5 default · ~/proj',
  '  ← for agents · ? for shortcuts',
];
const CLAUDE_IDLE_DRAFT = [
  '● Shall I go on?',
  '✻ Churned for 4s',
  '────',
  '❯ 1. do this',
  '────',
  '  ⏸ manual mode on · ? for shortcuts',
];

describe('approval menus of the real TUIs', () => {
  it.each([
    ['Claude permission with its footer', CLAUDE_BASH_FOOTER],
    ['Codex approval with its press-enter footer', CODEX_APPROVAL],
    ['Gemini confirmation in its box', GEMINI_CONFIRM],
  ])('%s is an approval menu', (_label, rows) => {
    expect(matchApprovalMenu(lines(rows))).not.toBeNull();
    expect(reason(rows)).toBe('agent-approval-prompt');
  });

  it('a line of narration under the rows is no menu (the safe way to be wrong)', () => {
    expect(matchApprovalMenu(lines([...CLAUDE_BASH_FOOTER, '● Ok, running it now']))).toBeNull();
  });

  it('rows whose last is not a refusal are no approval menu', () => {
    expect(matchApprovalMenu(lines([' Do you want to proceed?', ' ❯ 1. Yes', '   2. Maybe']))).toBeNull();
  });
});

describe('selection menus (startup questions)', () => {
  it.each([
    ['the API-key question (unnumbered, footer)', CLAUDE_API_KEY],
    ['the auto-mode question (unnumbered, no footer)', CLAUDE_AUTO_MODE],
    [
      'a numbered question with a cursor',
      ['Keep loop detection on or turn it off?', '● 1. Keep it (esc)', '  2. Turn it off'],
    ],
  ])('%s is an interactive prompt', (_label, rows) => {
    expect(matchSelectionMenu(lines(rows))).not.toBeNull();
    expect(reason(rows)).toBe('agent-interactive-prompt');
  });

  it('the cursor may sit on any choice', () => {
    const moved = [
      '  Do you want to use this API key?',
      '  ❯ Yes',
      '    No (recommended)',
      '  Enter to confirm · Esc to cancel',
    ];
    expect(reason(moved)).toBe('agent-interactive-prompt');
  });

  it.each([
    ['a Codex composer under a question the model asked', CODEX_IDLE_AFTER_QUESTION],
    ['a Claude draft that is a numbered list', CLAUDE_IDLE_DRAFT],
  ])('%s is no menu', (_label, rows) => {
    expect(matchSelectionMenu(lines(rows))).toBeNull();
    expect(reason(rows)).toBeNull();
  });

  it('a trust question keeps its own reason', () => {
    const trust = [
      ' Quick safety check: Is this a project you created or one you trust?',
      ' ❯ No, exit',
      '   Yes, I trust this folder',
      ' Enter to confirm · Esc to cancel',
    ];
    expect(reason(trust)).toBe('agent-trust-workspace');
  });
});

describe('findMenuShape (the send guard fails closed)', () => {
  it.each([
    ['numbered choices with a cursor and no question', ['Pick one', '❯ 1. first', '  2. second']],
    ['a do-you-want question', ['Do you want to continue?', 'y/n']],
    ['a cancel footer', ['Some picker', 'Esc to cancel']],
  ])('%s', (_label, rows) => {
    expect(findMenuShape(lines(rows))).not.toBeNull();
  });

  it.each([
    ['an idle Claude composer', ['✻ Done', '────', '❯', '────', '  ? for shortcuts']],
    ['a Codex composer', ['› Ask Codex to do anything', '  gpt-5 default · ~/p', '  ← for agents · ? for shortcuts']],
    [
      'Gemini working with its inline cancel hint',
      ['⠋ Thinking (esc to cancel, 3s)', '> Type your message or @path/to/file', 'workspace  sandbox'],
    ],
    ['a numbered list in narration without a cursor', ['● Plan:', '  1. read', '  2. write']],
  ])('%s is not menu-shaped', (_label, rows) => {
    expect(findMenuShape(lines(rows))).toBeNull();
  });

  it('never throws on arbitrary screens (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 40 }), (rows) => {
        findMenuShape(lines(rows));
        matchSelectionMenu(lines(rows));
        matchApprovalMenu(lines(rows));
        return true;
      }),
    );
  });
});
