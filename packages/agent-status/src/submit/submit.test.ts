import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composerInput, PASTE_END, PASTE_START, submitStrategy } from './strategy.ts';
import { composerRows, draftInComposer, isPromptSubmitEvent } from './verify.ts';

const CLAUDE_DRAFT = [
  '❯ earlier prompt',
  '● answer',
  '────',
  '❯ fix the failing tests please',
  '────',
  '  ? for shortcuts',
];
const CLAUDE_SENT = ['❯ fix the failing tests please', '● On it.', '────', '❯\u00a0', '────', '  ? for shortcuts'];
const CODEX_DRAFT = ['› fix the failing tests please', '', '  gpt-5 default · ~/p'];
const CODEX_SENT = [
  '› fix the failing tests please',
  '• Working',
  '› Ask Codex to do anything',
  '  gpt-5 default · ~/p',
];

describe('draftInComposer', () => {
  it('sees the draft in the composer, not in the transcript above it', () => {
    expect(draftInComposer(CLAUDE_DRAFT, 'fix the failing tests please', 'claude')).toBe(true);
    expect(draftInComposer(CLAUDE_SENT, 'fix the failing tests please', 'claude')).toBe(false);
    expect(draftInComposer(CODEX_DRAFT, 'fix the failing tests please', 'codex')).toBe(true);
    expect(draftInComposer(CODEX_SENT, 'fix the failing tests please', 'codex')).toBe(false);
  });

  it('a long prompt wrapped over rows, or shown as a paste placeholder, is a draft', () => {
    const long = 'word '.repeat(300).trim();
    const rows = [
      '────',
      `❯ ${long.slice(0, 110)}`,
      ...Array.from({ length: 12 }, (_, i) => long.slice(110 + i * 110, 220 + i * 110)),
    ];
    expect(draftInComposer(rows, long, 'claude')).toBe(true);
    expect(draftInComposer(['› [Pasted Content 5120 chars]', '  gpt-5 default'], long, 'codex')).toBe(true);
  });

  it('with an unknown agent the bottom rows are the composer', () => {
    expect(composerRows(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], null)).toEqual(['c', 'd', 'e', 'f', 'g', 'h']);
    // a TUI drawing at the top of an empty screen: the last rows with text, not the blank bottom
    expect(draftInComposer(['› do it', '  status', '', '', '', '', '', '', ''], 'do it', null)).toBe(true);
    expect(draftInComposer(['old', 'ready> do it'], 'do it', null)).toBe(true);
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 30 }), fc.string(), (screen, prompt) => {
        draftInComposer(screen, prompt, 'claude');
        draftInComposer(screen, prompt, null);
        return true;
      }),
    );
  });
});

describe('prompt-submit hooks and strategies', () => {
  it('names the UserPromptSubmit class per agent', () => {
    expect(isPromptSubmitEvent('claude', 'UserPromptSubmit')).toBe(true);
    expect(isPromptSubmitEvent('gemini', 'BeforeAgent')).toBe(true);
    expect(isPromptSubmitEvent('cursor', 'beforeSubmitPrompt')).toBe(true);
    expect(isPromptSubmitEvent('claude', 'Stop')).toBe(false);
    expect(isPromptSubmitEvent('nope', 'UserPromptSubmit')).toBe(false);
    expect(isPromptSubmitEvent('claude', undefined)).toBe(false);
  });

  it('bracketed paste only when the agent enabled it; end markers inside the text are dropped', () => {
    const s = submitStrategy('claude');
    expect(composerInput('hi', s, false)).toBe('hi');
    expect(composerInput(`a${PASTE_END}b`, s, true)).toBe(`${PASTE_START}ab${PASTE_END}`);
    expect(submitStrategy('gemini').pasteQuietMs).toBeGreaterThan(30);
    expect(submitStrategy(null)).toEqual(submitStrategy('claude'));
  });
});
