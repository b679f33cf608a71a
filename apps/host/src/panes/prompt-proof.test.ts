import { describe, expect, it } from 'vitest';
import { promptDigest, promptProof } from './prompt-proof.ts';

const hook = (seq: number, text: string | null) => ({ seq, at: seq, text });

describe('promptProof', () => {
  it('the hook carrying this prompt proves it; hooks of other prompts are counted, never credited', () => {
    expect(promptProof([hook(1, 'fix the docs'), hook(2, 'fix the tests\n')], 'fix the tests')).toEqual({
      proof: 'text',
      foreign: 1,
    });
    expect(promptProof([hook(1, 'fix the docs')], 'fix the tests')).toEqual({ proof: null, foreign: 1 });
    // Two prompts merged into one message prove neither.
    expect(promptProof([hook(1, 'fix the tests\nfix the docs')], 'fix the tests')).toEqual({ proof: null, foreign: 1 });
    expect(promptProof([], 'fix the tests')).toEqual({ proof: null, foreign: 0 });
  });

  it('an agent whose prompt hook carries no text proves by the event (the writer lock kept others out)', () => {
    expect(promptProof([hook(1, null)], 'anything')).toEqual({ proof: 'event', foreign: 0 });
  });

  it('digests the prompt as compared: the same for texts that normalise alike, else different', () => {
    expect(promptDigest('fix  the\r\ntests ')).toBe(promptDigest('fix the tests'));
    expect(promptDigest('fix the tests')).not.toBe(promptDigest('fix the docs'));
    expect(promptDigest('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
