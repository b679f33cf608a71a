import type { AgentId } from '../agent-ids.ts';
import { codexComposerAtBottom } from './dismissal.ts';
import type { WindowLine } from './match-window.ts';

/** Bottom lines a composer may sit in above its status lines (non-blank window lines). */
const COMPOSER_SEARCH_LINES = 4;
/**
 * opencode draws its composer as a box with the agent and model under the text, then a key-hint
 * line, a tip and the status bar (`<dir>  <version>`): its agent line sits up to this many
 * non-blank lines above the bottom (opencode 1.18.33, agents lab).
 */
const OPENCODE_COMPOSER_SEARCH_LINES = 6;
/** opencode's agent/model line under its composer: `Build · Lab model Lab`, `Plan · gpt-5 OpenAI`. */
const OPENCODE_AGENT_LINE = /^[a-z][\w-]{0,30} · \S/;

function promptLineAtBottom(
  lines: readonly WindowLine[],
  test: (text: string) => boolean,
  searchLines: number = COMPOSER_SEARCH_LINES,
  maxIndent = 2,
): boolean {
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - searchLines; i--) {
    const line = lines[i];
    if (line && line.indent <= maxIndent && test(line.text)) return true;
  }
  return false;
}

/**
 * The agent's own input prompt is at the bottom of the window (seen on the real TUIs in the agents
 * lab): Claude's `❯` line, Codex's `› …` composer, Gemini's and Qwen Code's `> Type your message`, opencode's
 * `Build · <model>` line under its composer box. Fusion reads it
 * only for the agent in front, when no hook, OSC row or title says anything: a live TUI showing its
 * composer and no dialog is at its prompt.
 *
 * @example
 * composerAtBottom('codex', windowFromScreen(['› Ask Codex to do anything', '  gpt-5 default · ~/p']).lines); // true
 */
export function composerAtBottom(agent: AgentId, lines: readonly WindowLine[]): boolean {
  return COMPOSERS[agent]?.(lines) ?? false;
}

/**
 * Does the engine know what `agent`'s composer looks like? A caller waiting for the composer must
 * not wait on an agent whose composer it could never see.
 *
 * @example
 * composerKnown('gemini'); // true
 * composerKnown('droid'); // false
 */
export function composerKnown(agent: AgentId): boolean {
  return Object.hasOwn(COMPOSERS, agent);
}

const geminiPrompt = (lines: readonly WindowLine[]) =>
  promptLineAtBottom(lines, (t) => t === '>' || t.startsWith('> '));

const COMPOSERS: Readonly<Partial<Record<AgentId, (lines: readonly WindowLine[]) => boolean>>> = {
  codex: (lines) => codexComposerAtBottom(lines, -1) >= 0,
  claude: (lines) =>
    promptLineAtBottom(lines, (t) => t === '❯' || t === '>' || t.startsWith('❯ ') || t.startsWith('> ')),
  gemini: geminiPrompt,
  // Why: Qwen Code (a Gemini CLI fork) draws Gemini's `>   Type your message` line (0.24.4, agents lab).
  qwen: geminiPrompt,
  // Why: opencode centres its box on the start screen; the line's indent says nothing there.
  opencode: (lines) =>
    promptLineAtBottom(
      lines,
      (t) => OPENCODE_AGENT_LINE.test(t),
      OPENCODE_COMPOSER_SEARCH_LINES,
      Number.POSITIVE_INFINITY,
    ),
};
