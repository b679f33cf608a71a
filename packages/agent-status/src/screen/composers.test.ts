import { describe, expect, it } from 'vitest';
import { activityAtBottom, composerAtBottom, restingAtBottom } from './composers.ts';
import { windowFromScreen } from './match-window.ts';

const lines = (rows: string[]) => windowFromScreen(rows).lines;

describe('composerAtBottom', () => {
  it.each([
    ['claude', ['✻ Done', '────', '❯\u00a0', '────', '  ⏸ manual mode on · ? for shortcuts']],
    ['codex', ['• Done.', '› Ask Codex to do anything', '  gpt-5 default · ~/p', '  ← for agents · ? for shortcuts']],
    [
      'gemini',
      [
        '✦ Done.',
        ' >   Type your message or @path/to/file',
        ' workspace (/directory)   sandbox',
        ' ~/proj   no sandbox',
      ],
    ],
  ] as const)('%s at its prompt', (agent, rows) => {
    expect(composerAtBottom(agent, lines([...rows]))).toBe(true);
  });

  it("another agent's composer does not count, nor a prompt far above the bottom", () => {
    expect(composerAtBottom('claude', lines(['› Ask Codex to do anything', '  gpt-5 default']))).toBe(false);
    expect(composerAtBottom('codex', lines(['› old', 'a', 'b', 'c', 'd', 'e']))).toBe(false);
    expect(composerAtBottom('cursor', lines(['❯']))).toBe(false);
  });
});

describe('composerAtBottom: opencode 1.18.33 (agents lab screens)', () => {
  const start = [
    '                       ┃',
    '                       ┃  Ask anything… "Fix broken tests"',
    '                       ┃',
    '                       ┃  Build · Lab model Lab',
    '                       ╹▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀',
    '                                      tab agents  ctrl+p commands',
    '                     ● Tip Use {file:path} to include file contents in config values',
    '',
    '  ~/proj                                                       1.18.33',
  ];
  const afterTurn = [
    '  ┃',
    '  ┃  say hi there',
    '  ┃',
    '     hello from stub',
    '     ▣  Build · Lab model · 2.5s',
    '',
    '  ┃',
    '  ┃',
    '  ┃  Build · Lab model Lab',
    '   /tmp/p                                            8  ctrl+p commands',
  ];
  it('finds the agent line under its composer box, centred or not', () => {
    expect(composerAtBottom('opencode', lines(start))).toBe(true);
    expect(composerAtBottom('opencode', lines(afterTurn))).toBe(true);
  });
  it('a transcript line far above the bottom or another agent does not count', () => {
    expect(composerAtBottom('opencode', lines(['  Build · Lab model Lab', 'a', 'b', 'c', 'd', 'e', 'f']))).toBe(false);
    expect(composerAtBottom('claude', lines(start))).toBe(false);
  });
});

describe('composerAtBottom and activityAtBottom: Droid 0.225.2 (agents lab screens)', () => {
  const start = [
    '                          Skills (…)  MCPs (0) ✗  AGENTS.md ✗',
    ' Auto (Off) · all actions require approval                                   Lab model',
    '╭───────────────────────────────────────────────────────────╮',
    '│ > Try "Search the documentation for this library"         │',
    '╰───────────────────────────────────────────────────────────╯',
    '? for help                                                IDE ◌',
  ];
  const afterTurn = [
    '⛬  The slow tool finished.',
    ' Auto (Off) · all actions require approval                                   Lab model',
    '│ >                                                         │',
    '[⏱ 11s] ? for help                                        IDE ◌',
  ];
  const toolRunning = [
    '   Execute sleep 4',
    ' ⠇ Executing...  (Press ESC to stop)',
    ' Auto (Off) · all actions require approval                                   Lab model',
    '│ > Enter to steer · Ctrl+Enter to queue                    │',
    '[⏱ 8s] ? for help                                         IDE ◌',
  ];

  it('its boxed `>` composer at rest is its prompt, with a tip or empty', () => {
    expect(composerAtBottom('droid', lines(start))).toBe(true);
    expect(composerAtBottom('droid', lines(afterTurn))).toBe(true);
    expect(activityAtBottom('droid', lines(afterTurn))).toBe(false);
  });

  it('while it works the composer stays, with its steering hint under the in-progress line: busy, not at rest', () => {
    expect(composerAtBottom('droid', lines(toolRunning))).toBe(false);
    expect(activityAtBottom('droid', lines(toolRunning))).toBe(true);
    // only Droid draws this line, and only at the bottom counts
    expect(activityAtBottom('claude', lines(toolRunning))).toBe(false);
    expect(activityAtBottom('droid', lines([...toolRunning, 'a', 'b', 'c', 'd']))).toBe(false);
  });
});

describe('activityAtBottom and restingAtBottom: Copilot CLI 1.0.102 (agents lab screens)', () => {
  const screen = (status: string) => [' /tmp/p', '─'.repeat(40), '❯ ', '─'.repeat(40), status];
  const working = [
    ' ◉ Working esc esc edit prompt                  lab-model',
    ' ◎ Working · 108 B esc esc interrupt            lab-model',
    ' ○ Working · 288 B esc again to interrupt       lab-model',
  ];
  const resting = ' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab   lab-model';

  it('its status line under the composer says working or at rest; only for copilot', () => {
    for (const w of working) {
      expect(activityAtBottom('copilot', lines(screen(w)))).toBe(true);
      expect(restingAtBottom('copilot', lines(screen(w)))).toBe(false);
    }
    expect(activityAtBottom('copilot', lines(screen(resting)))).toBe(false);
    expect(restingAtBottom('copilot', lines(screen(resting)))).toBe(true);
    expect(restingAtBottom('claude', lines(screen(resting)))).toBe(false);
    expect(activityAtBottom('claude', lines(screen(working[1] ?? '')))).toBe(false);
    // Why: the composer is on screen both ways; it says nothing about Copilot's state.
    expect(composerAtBottom('copilot', lines(screen(resting)))).toBe(false);
  });

  it('a transcript line that merely says "Working" is no status line', () => {
    expect(activityAtBottom('copilot', lines([' ● Working on it, esc esc interrupt', ...screen('')]))).toBe(false);
  });
});
