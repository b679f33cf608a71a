import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AgentId, STATUS_AGENT_IDS } from '../agent-ids.ts';
import type { RowState } from '../types.ts';
import { createHookNormalizer, HOOK_SOURCES } from './normalizer.ts';

type Case = [
  source: AgentId,
  event: string,
  payload: Record<string, unknown>,
  expected: RowState | null,
  extra?: object,
];

function one(source: AgentId, event: string, payload: Record<string, unknown>, hookEventName?: string) {
  const n = createHookNormalizer();
  return n.normalize({
    source,
    payload: hookEventName === undefined ? { hook_event_name: event, ...payload } : payload,
    receivedAt: 100,
    ...(hookEventName === undefined ? {} : { hookEventName }),
  });
}

const table: Case[] = [
  // claude dialect (and devin, grok, command-code)
  ['claude', 'UserPromptSubmit', { prompt: 'hi' }, 'working', { prompt: 'hi' }],
  [
    'claude',
    'PreToolUse',
    { tool_name: 'Bash', tool_input: { command: 'ls' } },
    'working',
    { toolName: 'Bash', toolInput: '{"command":"ls"}' },
  ],
  ['claude', 'PostToolUse', {}, 'working'],
  ['claude', 'PostToolUseFailure', {}, 'working'],
  [
    'claude',
    'PermissionRequest',
    { tool_use_id: 'toolu_1', tool_name: 'Bash' },
    'waiting',
    { toolUseId: 'toolu_1', toolName: 'Bash', dialog: true },
  ],
  // Claude Code 2.1.x (agents lab): no tool_use_id; the row still marks an on-screen dialog.
  ['claude', 'PermissionRequest', { tool_name: 'Bash' }, 'waiting', { toolName: 'Bash', dialog: true }],
  [
    'claude',
    'PreToolUse',
    { tool_name: 'AskUserQuestion', tool_use_id: 'toolu_2' },
    'waiting',
    { toolName: 'AskUserQuestion' },
  ],
  ['claude', 'Stop', { last_assistant_message: 'done' }, 'done', { lastAssistantMessage: 'done' }],
  ['claude', 'StopFailure', { is_interrupt: true }, 'done', { interrupted: true }],
  ['claude', 'StopFailure', {}, 'done'],
  ['claude', 'PostCompact', { trigger: 'manual' }, 'done'],
  ['claude', 'PostCompact', { trigger: 'auto' }, null],
  ['claude', 'SessionStart', { source: 'startup' }, 'done'],
  ['claude', 'SessionStart', { source: 'resume' }, 'done'],
  ['claude', 'SessionStart', { source: 'clear' }, 'done'],
  ['claude', 'SessionStart', { source: 'compact' }, null],
  ['claude', 'Notification', { message: 'Claude needs your permission' }, null],
  ['claude', 'SessionEnd', {}, null],
  ['devin', 'PostCompaction', {}, 'done'],
  ['devin', 'SessionEnd', {}, 'done'],
  ['devin', 'UserPromptSubmit', {}, 'working'],
  ['grok', 'StopCancelled', {}, 'done', { interrupted: true }],
  ['grok', 'SessionEnd', {}, 'done'],
  ['command-code', 'PermissionRequest', {}, 'waiting', { dialog: true }],
  // codex
  ['codex', 'SessionStart', { source: 'startup' }, 'working'],
  ['codex', 'SessionStart', { source: 'compact' }, null],
  ['codex', 'UserPromptSubmit', {}, 'working'],
  ['codex', 'PreToolUse', { tool_name: 'shell' }, 'working', { toolName: 'shell' }],
  ['codex', 'PostToolUse', {}, 'working'],
  ['codex', 'PermissionRequest', {}, 'waiting', { dialog: true }],
  ['codex', 'PermissionRequest', { auto_review: true }, 'working'],
  ['codex', 'PreToolUse', { tool_name: 'request_user_input' }, 'waiting', { toolName: 'request_user_input' }],
  ['codex', 'Stop', {}, 'done'],
  // gemini
  ['gemini', 'BeforeAgent', {}, 'working'],
  ['gemini', 'BeforeTool', {}, 'working'],
  ['gemini', 'AfterTool', {}, 'working'],
  ['gemini', 'PreToolUse', {}, 'working'],
  ['gemini', 'PostToolUse', {}, 'working'],
  ['gemini', 'AfterAgent', {}, 'done'],
  ['gemini', 'Notification', {}, null],
  // cursor
  ['cursor', 'beforeSubmitPrompt', {}, 'working'],
  ['cursor', 'sessionStart', {}, 'working'],
  ['cursor', 'preToolUse', {}, 'working'],
  ['cursor', 'postToolUse', {}, 'working'],
  ['cursor', 'postToolUseFailure', {}, 'working'],
  ['cursor', 'beforeShellExecution', { command: 'ls' }, 'working'],
  ['cursor', 'beforeMCPExecution', {}, 'working'],
  ['cursor', 'afterAgentResponse', {}, 'working'],
  ['cursor', 'stop', { status: 'completed' }, 'done'],
  ['cursor', 'stop', { status: 'aborted' }, 'done', { interrupted: true }],
  ['cursor', 'sessionEnd', {}, 'done'],
  ['cursor', 'afterFileEdit', {}, null],
  // opencode, mimo-code
  ['opencode', 'SessionBusy', {}, 'working'],
  ['opencode', 'MessagePart', {}, 'working'],
  ['opencode', 'PermissionRequest', {}, 'waiting'],
  ['opencode', 'AskUserQuestion', {}, 'waiting'],
  ['opencode', 'SessionIdle', {}, 'done'],
  ['opencode', 'UserPromptSubmit', { prompt: 'hi' }, 'working', { prompt: 'hi' }],
  ['opencode', 'QuestionReplied', { reply: 'answer' }, 'working'],
  ['opencode', 'PermissionReplied', { reply: 'once' }, 'working'],
  ['opencode', 'SessionError', { error: 'APIError' }, 'done'],
  ['opencode', 'SessionError', { error: 'MessageAbortedError' }, 'done', { interrupted: true }],
  ['opencode', 'PermissionReplied', { reply: 'reject' }, null],
  ['opencode', 'QuestionReplied', { reply: 'reject' }, null],
  ['mimo-code', 'SessionStart', {}, 'done'],
  // amp
  ['amp', 'agent.start', { thread_id: 't1' }, 'working'],
  ['amp', 'tool.call', { thread_id: 't1' }, 'working'],
  ['amp', 'tool.result', { thread_id: 't1' }, 'working'],
  ['amp', 'agent.end', { thread_id: 't1' }, 'done'],
  ['amp', 'agent.end', { thread_id: 't1', status: 'cancelled' }, 'done', { interrupted: true }],
  ['amp', 'session.start', {}, null],
  // pi, omp
  ['pi', 'before_agent_start', {}, 'working'],
  ['pi', 'agent_start', {}, 'working'],
  ['pi', 'tool_call', { tool_name: 'bash' }, 'working', { toolName: 'bash' }],
  ['pi', 'tool_call', { tool_name: 'ask' }, 'blocked', { toolName: 'ask' }],
  ['pi', 'tool_execution_start', { tool_name: 'ask' }, 'blocked', { toolName: 'ask' }],
  ['pi', 'tool_execution_end', {}, 'working'],
  ['pi', 'message_end', {}, 'working'],
  ['pi', 'tool_approval_requested', {}, 'blocked'],
  ['pi', 'tool_approval_resolved', {}, 'working'],
  ['omp', 'agent_end', {}, 'done'],
  ['omp', 'session_start', {}, null],
  // droid
  ['droid', 'UserPromptSubmit', {}, 'working'],
  ['droid', 'PreToolUse', { tool_name: 'Read' }, 'working', { toolName: 'Read' }],
  ['droid', 'PostToolUse', {}, 'working'],
  ['droid', 'PreToolUse', { tool_name: 'AskUser' }, 'waiting', { toolName: 'AskUser' }],
  ['droid', 'PreToolUse', { tool_name: 'Execute', requires_approval: true }, 'waiting', { toolName: 'Execute' }],
  // Droid 0.225.2 (agents lab): these waits are its approval dialog; no hook says when it is answered.
  ['droid', 'PermissionRequest', {}, 'waiting', { dialog: true }],
  ['droid', 'Notification', { message: 'Droid needs your permission to run Execute' }, 'waiting', { dialog: true }],
  ['droid', 'Notification', { message: 'Droid is waiting for your input' }, 'done'],
  ['droid', 'Stop', {}, 'done'],
  ['droid', 'SessionStart', {}, null],
  // copilot (camelCase names too)
  ['copilot', 'SessionStart', {}, 'working'],
  ['copilot', 'userPromptSubmitted', {}, 'working'],
  ['copilot', 'PreToolUse', { toolName: 'bash' }, 'working', { toolName: 'bash' }],
  ['copilot', 'PostToolUse', {}, 'working'],
  ['copilot', 'PostToolUseFailure', {}, 'working'],
  ['copilot', 'PermissionRequest', {}, 'working'],
  // Copilot 1.0.102 (agents lab): a permission_prompt is its approval dialog; no hook says when it is answered.
  ['copilot', 'Notification', { notification_type: 'permission_prompt' }, 'waiting', { dialog: true }],
  ['copilot', 'Notification', { notification_type: 'elicitation_dialog' }, 'blocked'],
  ['copilot', 'PreToolUse', { toolName: 'ask_user' }, 'blocked', { toolName: 'ask_user' }],
  ['copilot', 'Stop', {}, 'done'],
  ['copilot', 'SessionEnd', {}, 'done'],
  ['copilot', 'ErrorOccurred', { fatal: true }, 'done'],
  ['copilot', 'ErrorOccurred', { fatal: false }, null],
  // antigravity
  ['antigravity', 'PreInvocation', {}, 'working'],
  ['antigravity', 'PreToolUse', {}, 'working'],
  ['antigravity', 'PostToolUse', {}, 'working'],
  ['antigravity', 'Stop', {}, 'done'],
  ['antigravity', 'PostInvocation', {}, null],
];

describe('hook normalizers: every agent × event', () => {
  it.each(table)('%s %s %j → %s', (source, event, payload, expected, extra) => {
    const row = one(source, event, payload);
    if (expected === null) expect(row).toBe(null);
    else {
      expect(row).toEqual({ state: expected, receivedAt: 100, stateStartedAt: 100, source, via: 'hook', ...extra });
    }
  });

  it('the out-of-band event name wins (Copilot, Antigravity)', () => {
    expect(one('copilot', '', { hook_event_name: 'Stop' }, 'preToolUse')?.state).toBe('working');
    expect(one('antigravity', '', {}, 'Stop')?.state).toBe('done');
    expect(
      createHookNormalizer().normalize({ source: 'claude', payload: { hookType: 'Stop' }, receivedAt: 1 })?.state,
    ).toBe('done');
  });

  it('only PermissionRequest rows keep toolUseId', () => {
    expect(one('claude', 'PreToolUse', { tool_use_id: 'x' })).not.toHaveProperty('toolUseId');
    expect(one('claude', 'PermissionRequest', { tool_use_id: 'x' })).toHaveProperty('toolUseId', 'x');
  });

  it('unknown source, unknown event, non-object payload → null', () => {
    const n = createHookNormalizer();
    expect(n.normalize({ source: 'vim', payload: { hook_event_name: 'Stop' }, receivedAt: 1 })).toBe(null);
    expect(n.normalize({ source: 'claude', payload: { hook_event_name: 'Bogus' }, receivedAt: 1 })).toBe(null);
    expect(n.normalize({ source: 'claude', payload: '{"hook_event_name":"Stop"}', receivedAt: 1 })).toBe(null);
    expect(n.normalize({ source: 'claude', payload: ['Stop'], receivedAt: 1 })).toBe(null);
    expect(n.normalize({ source: 'claude', payload: { hook_event_name: 'Stop' }, receivedAt: Number.NaN })).toBe(null);
  });
});

describe('per-pane history', () => {
  it('stateStartedAt carries while the state is unchanged, across hooks and OSC', () => {
    const n = createHookNormalizer();
    n.normalize({ source: 'claude', payload: { hook_event_name: 'UserPromptSubmit' }, receivedAt: 10 });
    expect(
      n.normalize({ source: 'claude', payload: { hook_event_name: 'PreToolUse' }, receivedAt: 20 })?.stateStartedAt,
    ).toBe(10);
    expect(n.fromOsc({ state: 'working', toolName: 'Bash' }, 'claude', 30)).toEqual({
      state: 'working',
      receivedAt: 30,
      stateStartedAt: 10,
      source: 'claude',
      via: 'osc',
      toolName: 'Bash',
    });
    expect(n.fromOsc({ state: 'done', interrupted: true }, 'claude', 40)).toEqual({
      state: 'done',
      receivedAt: 40,
      stateStartedAt: 40,
      source: 'claude',
      via: 'osc',
      interrupted: true,
    });
    expect(n.fromOsc({ state: 'done' }, 'vim', 50)).toBe(null);
    expect(n.fromOsc({ state: 'sleeping' }, 'claude', 50)).toBe(null);
  });

  it('seeding with the last stored row keeps its stateStartedAt; a malformed seed is ignored', () => {
    const last = { state: 'working', receivedAt: 500, stateStartedAt: 400, source: 'codex', via: 'hook' };
    const n = createHookNormalizer({ last });
    expect(
      n.normalize({ source: 'codex', payload: { hook_event_name: 'PostToolUse' }, receivedAt: 900 })?.stateStartedAt,
    ).toBe(400);
    const bad = createHookNormalizer({ last: { state: 'working', receivedAt: 'x' } });
    expect(bad.last).toBe(null);
    expect(
      bad.normalize({ source: 'codex', payload: { hook_event_name: 'PostToolUse' }, receivedAt: 900 })?.stateStartedAt,
    ).toBe(900);
  });

  it('claude: subagent events never set lead state; lead Stop with an open child stays working', () => {
    const n = createHookNormalizer();
    const ev = (hook_event_name: string, extra: object, at: number) =>
      n.normalize({ source: 'claude', payload: { hook_event_name, ...extra }, receivedAt: at });
    ev('UserPromptSubmit', {}, 1);
    expect(ev('PreToolUse', { agent_id: 'sub1' }, 2)).toBe(null);
    expect(ev('Stop', {}, 3)?.state).toBe('working');
    expect(ev('SubagentStop', { agent_id: 'sub1' }, 4)).toBe(null);
    expect(ev('Stop', {}, 5)).toEqual({
      state: 'done',
      receivedAt: 5,
      stateStartedAt: 5,
      source: 'claude',
      via: 'hook',
    });
  });

  it('cursor: afterAgentResponse after stop stays done', () => {
    const n = createHookNormalizer();
    n.normalize({ source: 'cursor', payload: { hook_event_name: 'stop', status: 'completed' }, receivedAt: 1 });
    expect(
      n.normalize({ source: 'cursor', payload: { hook_event_name: 'afterAgentResponse' }, receivedAt: 2 }),
    ).toEqual({
      state: 'done',
      receivedAt: 2,
      stateStartedAt: 1,
      source: 'cursor',
      via: 'hook',
    });
  });

  it('amp: tool events after a thread ended are dropped; session.start resets', () => {
    const n = createHookNormalizer();
    const ev = (e: string, at: number) =>
      n.normalize({ source: 'amp', payload: { hook_event_name: e, thread_id: 'T' }, receivedAt: at });
    ev('agent.start', 1);
    ev('agent.end', 2);
    expect(ev('tool.result', 3)).toBe(null);
    ev('session.start', 4);
    expect(ev('tool.call', 5)?.state).toBe('working');
  });
});

describe('HOOK_SOURCES', () => {
  it("is the relay's list, in its order, and every source has a dialect", () => {
    expect(HOOK_SOURCES).toEqual([
      'claude',
      'codex',
      'gemini',
      'antigravity',
      'amp',
      'opencode',
      'mimo-code',
      'cursor',
      'pi',
      'omp',
      'droid',
      'command-code',
      'grok',
      'copilot',
      'hermes',
      'devin',
      'kimi',
      'crush',
      'qwen',
    ]);
    expect(HOOK_SOURCES).toEqual(STATUS_AGENT_IDS);
  });
});

describe('property: arbitrary JSON never throws', () => {
  it('normalize and fromOsc return a row or null', () => {
    const events = fc.constantFrom(
      'Stop',
      'PreToolUse',
      'PermissionRequest',
      'agent.end',
      'tool_call',
      'Notification',
      'stop',
      'x',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...STATUS_AGENT_IDS, 'nope'),
        events,
        fc.jsonValue(),
        fc.anything(),
        (source, event, json, anything) => {
          const n = createHookNormalizer({ last: anything });
          const payload =
            json !== null && typeof json === 'object' && !Array.isArray(json)
              ? { ...json, hook_event_name: event }
              : json;
          const row = n.normalize({ source, payload, receivedAt: 5 });
          expect(row === null || typeof row.state === 'string').toBe(true);
          const osc = n.fromOsc(anything, source, 6);
          expect(osc === null || typeof osc.state === 'string').toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('IGNORED_HOOK_EVENTS', () => {
  it('lists every source, and every listed event really yields no row', async () => {
    const { IGNORED_HOOK_EVENTS } = await import('./agent-hooks.ts');
    expect(Object.keys(IGNORED_HOOK_EVENTS).sort()).toEqual([...HOOK_SOURCES].sort());
    const rows: string[] = [];
    for (const source of HOOK_SOURCES) {
      for (const event of IGNORED_HOOK_EVENTS[source]) {
        const row = createHookNormalizer().normalize({ source, payload: { hook_event_name: event }, receivedAt: 1 });
        if (row) rows.push(`${source}:${event}`);
      }
    }
    expect(rows).toEqual([]);
  });
});
