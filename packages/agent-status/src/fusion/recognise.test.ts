import { describe, expect, it } from 'vitest';
import { isShellName, recognise } from './recognise.ts';

describe('recognise', () => {
  it.each([
    ['codex', 'codex'],
    ['/usr/local/bin/claude --resume', 'claude'],
    ['claude -p "summarise"', null],
    ['claude --print x', null],
    ['node /usr/lib/node_modules/@openai/codex/bin/codex.js', 'codex'],
    ['node /home/u/.npm/_npx/1/node_modules/@google/gemini-cli/dist/index.js', 'gemini'],
    ['bun /home/u/.bun/bin/opencode', 'opencode'],
    ['npx @github/copilot', 'copilot'],
    ['npx copilot', 'copilot'],
    ['python3 -m hermes --tui', 'hermes'],
    ['cursor-agent', 'cursor'],
    ['agy', 'antigravity'],
    ['node server.js', null],
    ['', null],
    ['bash', null],
  ])('%j → %s', (cmd, agent) => {
    expect(recognise(cmd)).toBe(agent);
  });

  it('isShellName strips quotes, paths, Windows extensions and the login dash', () => {
    expect(
      ['"C:\\Windows\\System32\\cmd.exe"', '-zsh', '/bin/bash', 'pwsh.ps1', 'nu', 'fish'].map(isShellName),
    ).toEqual([true, true, true, true, true, true]);
    expect(['node', 'bashdb', 'zsh5x'].map(isShellName)).toEqual([false, false, false]);
  });
});
