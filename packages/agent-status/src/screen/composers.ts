import type { AgentId } from '../agent-ids.ts';
import { codexComposerAtBottom } from './dismissal.ts';
import type { WindowLine } from './match-window.ts';

/** Bottom lines a composer may sit in above its status lines (non-blank window lines). */
const COMPOSER_SEARCH_LINES = 4;

function promptLineAtBottom(lines: readonly WindowLine[], test: (text: string) => boolean): boolean {
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - COMPOSER_SEARCH_LINES; i--) {
    const line = lines[i];
    if (line && line.indent <= 2 && test(line.text)) return true;
  }
  return false;
}

/**
 * The agent's own input prompt is at the bottom of the window (seen on the real TUIs in the agents
 * lab): Claude's `❯` line, Codex's `› …` composer, Gemini's `> Type your message`. Fusion reads it
 * only for the agent in front, when no hook, OSC row or title says anything: a live TUI showing its
 * composer and no dialog is at its prompt.
 *
 * @example
 * composerAtBottom('codex', windowFromScreen(['› Ask Codex to do anything', '  gpt-5 default · ~/p']).lines); // true
 */
export function composerAtBottom(agent: AgentId, lines: readonly WindowLine[]): boolean {
  switch (agent) {
    case 'codex':
      return codexComposerAtBottom(lines, -1) >= 0;
    case 'claude':
      return promptLineAtBottom(lines, (t) => t === '❯' || t === '>' || t.startsWith('❯ ') || t.startsWith('> '));
    case 'gemini':
      return promptLineAtBottom(lines, (t) => t === '>' || t.startsWith('> '));
    default:
      return false;
  }
}
