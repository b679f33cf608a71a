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
 * composerKnown('cursor'); // false
 */
export function composerKnown(agent: AgentId): boolean {
  return Object.hasOwn(COMPOSERS, agent);
}

const geminiPrompt = (lines: readonly WindowLine[]) =>
  promptLineAtBottom(lines, (t) => t === '>' || t.startsWith('> '));

/** Droid's in-progress line above its composer: `⠇ Executing...  (Press ESC to stop)` (0.225.2, agents lab). */
const DROID_BUSY_LINE = /\(press esc to stop\)$/;
/** Droid keeps its composer while it works, with a steering hint: `> Enter to steer · Ctrl+Enter to queue`. */
const DROID_STEER_HINT = /^> enter to steer\b/;
/** Non-blank lines from the bottom that hold Droid's in-progress line (it, the mode line, the composer, the help line). */
const DROID_BUSY_SEARCH_LINES = 5;

function droidBusy(lines: readonly WindowLine[]): boolean {
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - DROID_BUSY_SEARCH_LINES; i--) {
    if (DROID_BUSY_LINE.test(lines[i]?.text ?? '')) return true;
  }
  return false;
}

/**
 * The agent shows its own in-progress line at the bottom of the window (Droid's `(Press ESC to
 * stop)` spinner line). Fusion reads it only for the agent in front, when no hook, OSC row or title
 * says anything: Droid fires no hook when a tool approval is answered, and its title never says
 * what it does, so while the approved tool runs only its screen says it works.
 *
 * @example
 * activityAtBottom('droid', windowFromScreen([' ⠇ Executing...  (Press ESC to stop)', '│ > Enter to steer │']).lines); // true
 */
export function activityAtBottom(agent: AgentId, lines: readonly WindowLine[]): boolean {
  if (agent === 'copilot') return copilotStatusLine(lines) === 'working';
  return agent === 'droid' && droidBusy(lines);
}

/**
 * Copilot CLI's status line under its composer (1.0.102, agents lab): `◉ Working · 108 B esc esc
 * interrupt` (`esc esc edit prompt` before the first token, `esc again to interrupt` after one Esc)
 * while it works, its key hints (`← open sidebar · Interactive · … · / commands · ? help`) at rest.
 */
const COPILOT_WORKING_LINE = /^\S working\b.*\besc (?:esc|again)\b/;
const COPILOT_HINTS_LINE = /· \/ commands · \? help\b/;

function copilotStatusLine(lines: readonly WindowLine[]): 'working' | 'resting' | null {
  const text = lines[lines.length - 1]?.text ?? '';
  if (COPILOT_WORKING_LINE.test(text)) return 'working';
  return COPILOT_HINTS_LINE.test(text) ? 'resting' : null;
}

/**
 * The agent's own status line says it is at rest (Copilot CLI's key hints in place of its
 * `Working …` line). Fusion reads it over a `working` hook row: Copilot fires no hook when a turn
 * ends in an API error (a `recoverable` ErrorOccurred, then nothing), and its title is its name
 * alone whatever it does.
 *
 * @example
 * restingAtBottom('copilot', windowFromScreen(['❯', ' ← open sidebar · Interactive · / commands · ? help']).lines); // true
 */
export function restingAtBottom(agent: AgentId, lines: readonly WindowLine[]): boolean {
  return agent === 'copilot' && copilotStatusLine(lines) === 'resting';
}

const COMPOSERS: Readonly<Partial<Record<AgentId, (lines: readonly WindowLine[]) => boolean>>> = {
  codex: (lines) => codexComposerAtBottom(lines, -1) >= 0,
  claude: (lines) =>
    promptLineAtBottom(lines, (t) => t === '❯' || t === '>' || t.startsWith('❯ ') || t.startsWith('> ')),
  gemini: geminiPrompt,
  // Why: Qwen Code (a Gemini CLI fork) draws Gemini's `>   Type your message` line (0.24.4, agents lab).
  qwen: geminiPrompt,
  // Why: Droid draws `> ` in its boxed composer at rest and while it works (then with a steering
  // hint under its in-progress line); only the first is its prompt (0.225.2, agents lab).
  droid: (lines) =>
    !droidBusy(lines) &&
    promptLineAtBottom(lines, (t) => (t === '>' || t.startsWith('> ')) && !DROID_STEER_HINT.test(t)),
  // Why: opencode centres its box on the start screen; the line's indent says nothing there.
  opencode: (lines) =>
    promptLineAtBottom(
      lines,
      (t) => OPENCODE_AGENT_LINE.test(t),
      OPENCODE_COMPOSER_SEARCH_LINES,
      Number.POSITIVE_INFINITY,
    ),
};
