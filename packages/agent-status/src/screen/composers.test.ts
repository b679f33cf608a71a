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
