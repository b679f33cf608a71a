import { describe, expect, it } from 'vitest';
import { composerAtBottom } from './composers.ts';
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
