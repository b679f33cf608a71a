import type { AgentId } from '../agent-ids.ts';
import { AGENT_HOOKS } from '../hooks/agent-hooks.ts';
import { normalizeLine, type WindowLine } from '../screen/match-window.ts';

/**
 * The hook events that prove an agent took a prompt (its UserPromptSubmit class), by source: the
 * agents of {@link AGENT_HOOKS} that have such an event.
 */
export const PROMPT_SUBMIT_EVENTS: Readonly<Partial<Record<AgentId, readonly string[]>>> = Object.freeze(
  Object.fromEntries(
    Object.entries(AGENT_HOOKS)
      .filter(([, hooks]) => hooks.promptSubmit.length > 0)
      .map(([id, hooks]) => [id, hooks.promptSubmit]),
  ),
);

/**
 * Does this hook event prove the agent took a prompt?
 *
 * @example
 * isPromptSubmitEvent('gemini', 'BeforeAgent'); // true
 */
export function isPromptSubmitEvent(source: string, event: string | undefined): boolean {
  // Why: `source` comes from outside; `valueOf` or `constructor` must not reach Object.prototype.
  if (event === undefined || !Object.hasOwn(PROMPT_SUBMIT_EVENTS, source)) return false;
  const events = PROMPT_SUBMIT_EVENTS[source as AgentId];
  return events?.some((e) => e.toLowerCase() === event.toLowerCase()) ?? false;
}

/** Placeholders TUIs show instead of a long pasted text. */
const PASTE_PLACEHOLDER = /\[pasted (?:text|content)[^\]]*\]/i;
/** The composer's own prompt glyph per agent (where a draft sits). */
const COMPOSER_GLYPH: Readonly<Partial<Record<AgentId, RegExp>>> = {
  claude: /^[❯>](?:\s|$)/,
  codex: /^›(?:\s|$)/,
  gemini: /^>(?:\s|$)/,
  qwen: /^>(?:\s|$)/,
};
/** Bottom non-blank rows read as the composer when the agent's glyph is not found (or the agent unknown). */
const COMPOSER_FALLBACK_ROWS = 6;
/** The last characters of a prompt a composer shows once it took the text (wrapping aside). */
const DRAFT_TAIL_CHARS = 24;

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

/** opencode's agent/model line under its composer text (`Build · Lab model Lab`), lower-cased. */
const OPENCODE_AGENT_LINE = /^[a-z][\w-]{0,30} · \S/;
/** opencode's composer box border (its transcript boxes use it too, separated by other rows). */
const OPENCODE_BOX_ROW = /^\s*┃/;

/**
 * opencode 1.18.33 draws its composer as a `┃`-bordered box ending in its agent/model line; the
 * user's sent messages above it are boxes of their own, separated by unbordered rows. The composer
 * is the run of bordered rows that holds the last agent line.
 */
function opencodeComposerRows(screen: readonly string[]): string[] | null {
  for (let i = screen.length - 1; i >= 0; i--) {
    const line = normalizeLine(screen[i] ?? '', i);
    if (!line || !OPENCODE_AGENT_LINE.test(line.text) || !OPENCODE_BOX_ROW.test(screen[i] ?? '')) continue;
    let top = i;
    while (top > 0 && OPENCODE_BOX_ROW.test(screen[top - 1] ?? '')) top--;
    return screen.slice(top);
  }
  return null;
}

/** The rendered rows of the composer: from the agent's last prompt line to the bottom. */
export function composerRows(screen: readonly string[], agent: AgentId | null): string[] {
  if (agent === 'opencode') {
    const rows = opencodeComposerRows(screen);
    if (rows) return rows;
  }
  const glyph = agent ? COMPOSER_GLYPH[agent] : undefined;
  const lines: WindowLine[] = [];
  for (let i = 0; i < screen.length; i++) {
    const line = normalizeLine(screen[i] ?? '', i);
    if (line) lines.push(line);
  }
  if (glyph) {
    for (let k = lines.length - 1; k >= 0 && k >= lines.length - COMPOSER_FALLBACK_ROWS * 2; k--) {
      const line = lines[k];
      if (line && line.indent <= 2 && glyph.test(line.text)) return screen.slice(line.offset);
    }
  }
  // Why: a TUI may draw at the top of a mostly empty screen; the composer is the last rows with text.
  const from = lines[Math.max(0, lines.length - COMPOSER_FALLBACK_ROWS)]?.offset ?? screen.length;
  return screen.slice(from);
}

/**
 * Is `prompt` sitting in the composer as a draft: its tail (whitespace ignored) in the composer
 * rows, or a paste placeholder there? Read before the submit key (the text arrived) and after it
 * (still there = not submitted).
 *
 * @example
 * draftInComposer(['────', '❯ fix the tests', '────'], 'fix the tests', 'claude'); // true
 */
export function draftInComposer(screen: readonly string[], prompt: string, agent: AgentId | null): boolean {
  const rows = composerRows(screen, agent).join('\n');
  if (PASTE_PLACEHOLDER.test(rows)) return true;
  const tail = squash(prompt).slice(-DRAFT_TAIL_CHARS);
  return tail.length > 0 && squash(rows).includes(tail);
}

/**
 * What an agent's empty composer shows after its glyph (real screens, agents lab): Claude Code
 * nothing; Codex 0.171.0 a dim hint; Gemini CLI 0.61.0 and Qwen Code 0.24.4 a hint.
 */
export const COMPOSER_PLACEHOLDERS: Readonly<Partial<Record<AgentId, readonly string[]>>> = Object.freeze({
  claude: [],
  codex: ['Ask Codex to do anything', 'Ask a follow-up question'],
  gemini: ['Type your message or @path/to/file'],
  qwen: ['Type your message or @path/to/file'],
});

/**
 * Does the composer at the bottom hold text someone typed (`draft`), or nothing but the agent's
 * own hint (`empty`)? `unknown` for an agent whose composer is not known, or when its glyph line
 * is not on screen. A prompt pasted onto a draft would go out as one message with it.
 *
 * @example
 * composerDraft(['❯ \u00a0', '  ? for shortcuts'], 'claude'); // 'empty'
 * composerDraft(['› also check t', '  gpt-5'], 'codex'); // 'draft'
 */
export function composerDraft(screen: readonly string[], agent: AgentId | null): 'empty' | 'draft' | 'unknown' {
  const glyph = agent ? COMPOSER_GLYPH[agent] : undefined;
  const placeholders = agent ? COMPOSER_PLACEHOLDERS[agent] : undefined;
  if (!glyph || !placeholders) return 'unknown';
  const rows = composerRows(screen, agent);
  const first = normalizeLine(rows[0] ?? '', 0);
  if (!first || !glyph.test(first.text)) return 'unknown';
  const text = first.text.replace(glyph, '').replace(/\s+/g, ' ').trim();
  if (text === '') return 'empty';
  // Why: normalised lines are lower case.
  return placeholders.some((p) => text === p.toLowerCase()) ? 'empty' : 'draft';
}
