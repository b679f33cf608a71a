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
    ['node /usr/lib/node_modules/@qwen-code/qwen-code/cli-entry.js', 'qwen'],
    ['qwen -p "hi"', null],
    ['qwen', 'qwen'],
    // The innermost package holds the script, whatever the catalogue's order.
    ['node /x/node_modules/@github/copilot/node_modules/opencode-ai/bin/x.js', 'opencode'],
    ['node /x/node_modules/opencode-ai/node_modules/@github/copilot/index.js', 'copilot'],
    ['constructor', null],
    ['__proto__', null],
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
