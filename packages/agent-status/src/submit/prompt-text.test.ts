import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePromptText, samePrompt, submittedPromptOf } from './prompt-text.ts';
import { PASTE_END, PASTE_START } from './strategy.ts';

describe('submittedPromptOf', () => {
  it('reads the prompt of each real agent prompt-submit payload (recorded in the agents lab)', () => {
    // Payload shapes of Claude Code 2.1.332, Codex 0.171.0 and Gemini CLI 0.61.0, as recorded.
    expect(
      submittedPromptOf('claude', 'UserPromptSubmit', {
        session_id: 's',
        prompt_id: 'p',
        permission_mode: 'default',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'tell me a short story',
      }),
    ).toBe('tell me a short story');
    expect(
      submittedPromptOf('codex', 'UserPromptSubmit', { turn_id: 't', model: 'gpt-5', prompt: 'tell me a short story' }),
    ).toBe('tell me a short story');
    expect(submittedPromptOf('gemini', 'BeforeAgent', { timestamp: 'x', prompt: 'tell me a short story' })).toBe(
      'tell me a short story',
    );
    expect(submittedPromptOf('cursor', 'beforeSubmitPrompt', { prompt: 'go' })).toBe('go');
  });

  it('tells a prompt hook without text (null) from an event of another class (undefined)', () => {
    expect(submittedPromptOf('amp', 'agent.start', { session: 'x' })).toBeNull();
    expect(submittedPromptOf('claude', 'UserPromptSubmit', { prompt: 42 })).toBeNull();
    expect(submittedPromptOf('claude', 'UserPromptSubmit', null)).toBeNull();
    expect(submittedPromptOf('claude', 'Stop', { prompt: 'x' })).toBeUndefined();
    expect(submittedPromptOf('claude', undefined, { prompt: 'x' })).toBeUndefined();
    expect(submittedPromptOf('nobody', 'UserPromptSubmit', { prompt: 'x' })).toBeUndefined();
  });

  it('never throws on any payload (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string()), fc.anything(), (source, event, payload) => {
        const r = submittedPromptOf(source, event ?? undefined, payload);
        return r === undefined || r === null || typeof r === 'string';
      }),
    );
  });
});

describe('samePrompt', () => {
  it('ignores what TUIs change in a pasted text: CR/LF, tabs, edge blanks, paste markers, NFC', () => {
    expect(samePrompt('fix the tests', 'fix the tests\n')).toBe(true);
    expect(samePrompt('line one\nline two', 'line one\r\nline two')).toBe(true);
    expect(samePrompt('a\tb', 'a    b')).toBe(true);
    expect(samePrompt(`${PASTE_START}hello${PASTE_END}`, 'hello')).toBe(true);
    expect(samePrompt('caf\u00e9', 'cafe\u0301')).toBe(true);
  });

  it('a long paste Claude Code 2.1.332 wrapped in <pasted_content> is the prompt typed (real payload shape)', () => {
    const typed = 'LONG: please read this brief. Point 0 asks for check 0 in file f0.ts.';
    const reported = `\n\n<pasted_content id="07fb">\n${typed}\n</pasted_content id="07fb">\n`;
    expect(samePrompt(typed, reported)).toBe(true);
    expect(samePrompt('another brief', reported)).toBe(false);
  });

  it('a hook holding another prompt, or two prompts merged, is not this prompt', () => {
    expect(samePrompt('fix the tests', 'fix the docs')).toBe(false);
    expect(samePrompt('fix the tests', 'fix the tests fix the docs')).toBe(false);
    expect(samePrompt('fix the tests', 'fix the')).toBe(false);
    expect(samePrompt('', '')).toBe(false);
    expect(samePrompt(' \n', '')).toBe(false);
  });

  it('is reflexive for any prompt with text, and normalising twice changes nothing (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const once = normalizePromptText(text);
        expect(normalizePromptText(once)).toBe(once);
        expect(samePrompt(text, text)).toBe(once.length > 0);
      }),
    );
  });
});
