import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumePlan } from './resume.ts';

describe('resumePlan', () => {
  it('keeps the launch flags (the permission mode first of all), drops the first prompt, adds the agent’s resume', () => {
    expect(resumePlan('claude', ['claude', '--permission-mode', 'default', 'fix the tests'], 's-1')).toEqual({
      argv: ['claude', '--permission-mode', 'default', '--resume', 's-1'],
    });
    expect(
      resumePlan('claude', ['/opt/bin/claude', '--resume', 'old', '-c', '--model=opus', '--verbose'], 's-2'),
    ).toEqual({
      argv: ['/opt/bin/claude', '--model=opus', '--verbose', '--resume', 's-2'],
    });
    expect(resumePlan('codex', ['codex', '-a', 'on-request', '--sandbox', 'read-only', 'do it'], 's-3')).toEqual({
      argv: ['codex', 'resume', 's-3', '-a', 'on-request', '--sandbox', 'read-only'],
    });
    expect(resumePlan('codex', ['codex', 'resume', 'older', '-m', 'gpt-5'], 's-4')).toEqual({
      argv: ['codex', 'resume', 's-4', '-m', 'gpt-5'],
    });
    expect(resumePlan('gemini', ['gemini', '--approval-mode', 'default', '-i', 'hello', '--yolo'], 's-5')).toEqual({
      argv: ['gemini', '--approval-mode', 'default', '--yolo', '--resume', 's-5'],
    });
  });

  it('says why a pane cannot be resumed', () => {
    expect(resumePlan(null, ['sh'], null)).toEqual({ reason: expect.stringMatching(/no agent/) });
    expect(resumePlan('claude', ['claude'], null)).toEqual({
      reason: expect.stringMatching(/never reported a session id/),
    });
    expect(resumePlan('claude', ['sh', '-c', 'claude'], 'x')).toEqual({ reason: expect.stringMatching(/ran `sh`/) });
    expect(resumePlan('claude', ['claude', '-p', 'hi'], 'x')).toEqual({ reason: expect.stringMatching(/interactive/) });
    expect(resumePlan('codex', ['codex', 'exec', 'hi'], 'x')).toEqual({ reason: expect.stringMatching(/interactive/) });
    expect(resumePlan('cursor', ['cursor-agent'], 'x')).toEqual({ reason: expect.stringMatching(/not supported/) });
    expect(resumePlan('claude', ['claude'], '$(rm -rf ~)')).toEqual({
      reason: expect.stringMatching(/not one a command line/),
    });
    expect(resumePlan('constructor', ['claude'], 'x')).toEqual({ reason: expect.stringMatching(/not supported/) });
  });

  it('never throws, and a plan always ends with the session id it was given (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('claude', 'codex', 'gemini', 'nope'),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }),
        fc.stringMatching(/^[a-f0-9-]{1,36}$/),
        (agent, words, id) => {
          const plan = resumePlan(agent, [agent, ...words], id);
          if ('argv' in plan) expect(plan.argv).toContain(id);
        },
      ),
    );
  });
});

describe('resumePlan after `--`', () => {
  it('drops `--` and every operand after it, even one that looks like a flag', () => {
    expect(resumePlan('claude', ['claude', '--permission-mode', 'default', '--', '-fix it'], 's-3')).toEqual({
      argv: ['claude', '--permission-mode', 'default', '--resume', 's-3'],
    });
  });
});
