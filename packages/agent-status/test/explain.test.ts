import { describe, expect, it } from 'vitest';
import { evidenceFromFlags } from '../src/cli/evidence-from-flags.ts';
import { evaluatePane, explainPane, type RecordedEvidence, replayExplanation } from '../src/index.ts';
import { loadCorpus } from './load-corpus.ts';

const corpus = loadCorpus();

describe('explainPane over the real-screen corpus', () => {
  for (const [name, c] of corpus) {
    it(`${name}: the explained verdict is the evaluated one, and its stored form replays to it`, async () => {
      const evidence = () =>
        evidenceFromFlags({ ...c.evidence, tail: c.tail, ...(c.screen === undefined ? {} : { screen: c.screen }) });
      const verdict = await evaluatePane(evidence());
      const { explanation, recorded } = await explainPane(evidence());
      expect(explanation.verdict).toStrictEqual(verdict);
      expect(explanation.rule).toMatch(/^[a-z-]+$/);
      // Stored as JSON (the host's store), then replayed through the engine.
      const stored = JSON.parse(JSON.stringify(recorded)) as RecordedEvidence;
      expect(await replayExplanation(stored)).toStrictEqual(verdict);
      if (explanation.authority === 'screen') {
        expect(explanation.evidence.screen?.lines.length).toBeGreaterThan(0);
        expect(explanation.screenShowsPrompt).toBe(true);
      }
      if (explanation.authority === 'hook') expect(explanation.evidence.row?.via).toBe('hook');
    });
  }
});

describe('explainPane', () => {
  it('names a hook row that a live prompt on the screen overrode', async () => {
    const screen = ['Bash command', '', '  rm -rf build', '', 'Do you want to proceed?', '❯ 1. Yes', '  2. No', ''];
    const { explanation } = await explainPane({
      now: 10_000,
      ptyId: 'p',
      waitBlockedAt: 9_000,
      screen,
      rows: [{ state: 'working', receivedAt: 8_000, stateStartedAt: 8_000, source: 'claude', via: 'hook' }],
      title: { text: '✳ Claude Code', live: true, at: 7_000 },
    });
    expect(explanation).toMatchObject({
      verdict: { status: 'permission' },
      rule: 'screen-prompt',
      authority: 'screen',
      screenShowsPrompt: true,
      evidence: { row: { state: 'working', via: 'hook' }, screen: { kind: 'approval' } },
    });
    expect(explanation.overrode).toEqual(['a hook row (claude: working)']);
    expect(explanation.evidence.screen?.lines).toContain('do you want to proceed?');
  });

  it('a permission hook alone (no dialog on the screen) says so: screenShowsPrompt is false', async () => {
    const { explanation } = await explainPane({
      now: 10_000,
      ptyId: 'p',
      waitBlockedAt: null,
      screen: ['> ', ''],
      rows: [
        { state: 'waiting', receivedAt: 9_990, stateStartedAt: 9_990, source: 'claude', via: 'hook', toolName: 'Bash' },
      ],
      probe: { read: async () => 'claude' },
    });
    expect(explanation.authority).toBe('hook');
    expect(explanation.screenShowsPrompt).toBe(false);
    expect(explanation.evidence.process).toEqual({ agent: 'claude', shellOwns: false });
  });
});
