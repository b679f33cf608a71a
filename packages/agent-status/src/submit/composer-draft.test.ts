import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFixture } from '../fixtures/format.ts';
import { composerDraft, composerRows, draftInComposer } from './verify.ts';

const real = (name: string): string[] =>
  (
    parseFixture(readFileSync(new URL(`../../fixtures/real/${name}.fixture`, import.meta.url), 'utf8')).screen ?? ''
  ).split('\n');

describe('composerDraft', () => {
  it('reads the idle composers of the real CLIs as empty (their own hints included)', () => {
    expect(composerDraft(real('claude-2.1.332-idle'), 'claude')).toBe('empty');
    expect(composerDraft(real('claude-2.1.197-idle'), 'claude')).toBe('empty');
    expect(composerDraft(real('codex-0.171.0-idle'), 'codex')).toBe('empty');
    expect(composerDraft(real('gemini-0.61.0-idle'), 'gemini')).toBe('empty');
    expect(composerDraft(real('codex-0.171.0-cancelled'), 'codex')).toBe('empty');
  });

  it('sees text typed into those composers as a draft, not the transcript above', () => {
    const typed = (screen: string[], glyph: RegExp, text: string) => {
      const at = screen.findLastIndex((l) => glyph.test(l.trimStart()));
      return screen.map((l, i) =>
        i === at ? `${l.slice(0, l.indexOf(l.trimStart()[0] ?? ''))}${l.trimStart()[0]} ${text}` : l,
      );
    };
    expect(composerDraft(typed(real('claude-2.1.332-idle'), /^❯/, 'also check t'), 'claude')).toBe('draft');
    expect(composerDraft(typed(real('codex-0.171.0-idle'), /^›/, 'also check t'), 'codex')).toBe('draft');
    expect(composerDraft(typed(real('gemini-0.61.0-idle'), /^>/, 'also check t'), 'gemini')).toBe('draft');
  });

  it('says unknown for an unknown agent or a screen without its composer, and never throws (property)', () => {
    expect(composerDraft(['$ ls'], 'claude')).toBe('unknown');
    expect(composerDraft(['› do it'], null)).toBe('unknown');
    expect(composerDraft(['› do it'], 'cursor')).toBe('unknown');
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 20 }), (screen) => {
        for (const agent of ['claude', 'codex', 'gemini', null] as const) {
          expect(['empty', 'draft', 'unknown']).toContain(composerDraft(screen, agent));
        }
      }),
    );
  });
});

describe('composerRows: opencode', () => {
  it('is the bordered box holding the last agent line, not the sent message above it', () => {
    const screen = [
      '  ┃',
      '  ┃  say hi there',
      '  ┃',
      '     hello from stub',
      '',
      '  ┃',
      '  ┃  next draft',
      '  ┃',
      '  ┃  Build · Lab model Lab',
      '   /tmp/p       ctrl+p commands',
    ];
    expect(composerRows(screen, 'opencode')).toEqual(screen.slice(5));
    expect(draftInComposer(screen, 'say hi there', 'opencode')).toBe(false);
    expect(draftInComposer(screen, 'next draft', 'opencode')).toBe(true);
  });
});
