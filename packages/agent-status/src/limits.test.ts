import { describe, expect, it } from 'vitest';
import { isAgentId } from './agent-ids.ts';
import { BLOCKED_REASONS, isBlockedReason, legacyBlockedReason, reasonKind } from './blocked-reasons.ts';
import { AGENT_STATUS_ERROR_CODES, AgentStatusError, echoValue } from './errors.ts';

describe('blocked reasons', () => {
  it('lists both spellings of every stem plus the two singles', () => {
    expect(BLOCKED_REASONS).toEqual([
      'codex-update-prompt',
      'codex-trust-workspace',
      'codex-cwd-prompt',
      'codex-hooks-review-prompt',
      'codex-interactive-prompt',
      'agent-update-prompt',
      'agent-trust-workspace',
      'agent-cwd-prompt',
      'agent-hooks-review-prompt',
      'agent-interactive-prompt',
      'codex-model-migration-prompt',
      'agent-approval-prompt',
    ]);
  });

  it('isBlockedReason accepts both spellings only', () => {
    expect(
      ['agent-trust-workspace', 'codex-trust-workspace', 'agent-model-migration-prompt', 'x', 3].map(isBlockedReason),
    ).toEqual([true, true, false, false, false]);
  });

  it('reasonKind: only the approval menu is approval', () => {
    expect(BLOCKED_REASONS.filter((r) => reasonKind(r) === 'approval')).toEqual(['agent-approval-prompt']);
  });

  it('legacyBlockedReason maps agent-x to codex-x where old clients know it', () => {
    expect(legacyBlockedReason('agent-trust-workspace')).toBe('codex-trust-workspace');
    expect(legacyBlockedReason('agent-interactive-prompt')).toBe('codex-interactive-prompt');
    expect(legacyBlockedReason('agent-approval-prompt')).toBe('agent-approval-prompt');
    expect(legacyBlockedReason('codex-update-prompt')).toBe('codex-update-prompt');
  });

  it('isAgentId', () => {
    expect(['claude', 'mimo-code', 'aider'].map(isAgentId)).toEqual([true, true, false]);
  });
});

describe('AgentStatusError', () => {
  it('carries a stable code and field, and echoes at most 200 chars', () => {
    const e = new AgentStatusError('ORCA_STATUS_INVALID_EVIDENCE', 'bad', {
      context: { field: 'now' },
      cause: new Error('x'),
    });
    expect([e.code, e.field, e.name, e.cause instanceof Error]).toEqual([
      'ORCA_STATUS_INVALID_EVIDENCE',
      'now',
      'AgentStatusError',
      true,
    ]);
    expect(e.context).toEqual({ field: 'now' });
    expect(new AgentStatusError('ORCA_STATUS_USAGE', 'no field').field).toBeUndefined();
    expect(AGENT_STATUS_ERROR_CODES).toEqual(['ORCA_STATUS_INVALID_EVIDENCE', 'ORCA_STATUS_USAGE']);
    expect(echoValue('y'.repeat(500)).length).toBe(201);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(echoValue(cyclic)).toBe('[object Object]');
  });
});
