import { describe, expect, it } from 'vitest';
import { hook } from '../../test/support.ts';
import type { CanonicalEvent, EventPayloads, HookContext } from '../events.ts';
import type { Dialect } from '../hook.ts';
import { PACKAGE_VERSION } from '../internal/version.ts';
import type { DialectEventHandler } from './adapter.ts';
import { DIALECTS } from './registry.ts';

const ctx: HookContext = {
  conversationId: 'conv-1',
  generationId: 'gen-1',
  model: { name: 'sonnet', id: 'm-1' },
  workspaceRoots: ['/repo'],
};

const TOOLS: EventPayloads['toolGate'][] = [
  { toolName: 'run_shell', input: { command: 'rm -rf build', cwd: '/repo/sub' }, toolUseId: 't1' },
  { toolName: 'read_file', input: { path: '/repo/a.ts' }, toolUseId: 't2', fileContent: 'x' },
  { toolName: 'mcp__github__create_issue', input: { title: 'T' }, toolUseId: 't3' },
  { toolName: 'delete_file', input: { path: '/repo/b.ts' }, toolUseId: 't4' },
  { toolName: 'custom_tool', input: { k: 1 }, toolUseId: 't5' },
];

function marshal<E extends CanonicalEvent>(dialect: Dialect, event: E, wireEvent: string, payload: EventPayloads[E]) {
  const h = hook({ dialect, event, wireEvent, command: 'x', cwd: '/repo', projectDir: '/repo' });
  const handler: DialectEventHandler<E> | undefined = DIALECTS[dialect].events[event];
  if (handler === undefined) return 'no marshaller (abstains)';
  const out = handler.marshal(h, payload, ctx);
  // Strip the fields every request shares, so the snapshot shows what differs per event.
  if (out === null) return null;
  const {
    session_id,
    transcript_path,
    permission_mode,
    cwd,
    conversation_id,
    generation_id,
    cursor_version,
    workspace_roots,
    user_email,
    model,
    model_id,
    workspace,
    ...rest
  } = out;
  return rest;
}

describe('stdin marshalling', () => {
  it('claude: common fields', () => {
    const h = hook({ dialect: 'claude', event: 'stop', wireEvent: 'Stop', command: 'x', cwd: '/repo' });
    expect(DIALECTS.claude.events.stop?.marshal(h, { status: 'completed', loopCount: 2 }, ctx)).toMatchInlineSnapshot(`
      {
        "cwd": "/repo",
        "hook_event_name": "Stop",
        "permission_mode": "default",
        "session_id": "conv-1",
        "stop_hook_active": true,
        "transcript_path": "",
      }
    `);
  });

  it('claude: every event and tool family', () => {
    const out = {
      PreToolUse: TOOLS.map((p) => marshal('claude', 'toolGate', 'PreToolUse', p)),
      PostToolUse: marshal('claude', 'afterToolUse', 'PostToolUse', {
        toolName: 'run_shell',
        toolUseId: 'u',
        isError: false,
        input: { command: 'ls' },
        output: 'a.ts',
      }),
      PostToolUseOnError: marshal('claude', 'afterToolUse', 'PostToolUse', {
        toolName: 'run_shell',
        toolUseId: 'u',
        isError: true,
      }),
      PostToolUseFailure: marshal('claude', 'afterToolUse', 'PostToolUseFailure', {
        toolName: 'read_file',
        toolUseId: 'u',
        isError: true,
        input: { path: '/x' },
        errorMessage: 'ENOENT',
      }),
      UserPromptSubmit: marshal('claude', 'beforeSubmitPrompt', 'UserPromptSubmit', { prompt: 'hi' }),
      Stop: marshal('claude', 'stop', 'Stop', { status: 'completed' }),
      SubagentStop: marshal('claude', 'subagentStop', 'SubagentStop', {
        subagentType: 'explore',
        status: 'completed',
        loopCount: 1,
      }),
      SessionStart: marshal('claude', 'sessionStart', 'SessionStart', { source: 'resume' }),
      afterFileEdit: marshal('claude', 'afterFileEdit', 'x', { filePath: '/x' }),
      subagentStart: marshal('claude', 'subagentStart', 'x', { subagentType: 'x' }),
    };
    expect(out).toMatchInlineSnapshot(`
      {
        "PostToolUse": {
          "hook_event_name": "PostToolUse",
          "tool_input": {
            "command": "ls",
          },
          "tool_name": "Bash",
          "tool_response": "a.ts",
          "tool_use_id": "u",
        },
        "PostToolUseFailure": {
          "error": "ENOENT",
          "hook_event_name": "PostToolUseFailure",
          "is_interrupt": false,
          "tool_input": {
            "file_path": "/x",
          },
          "tool_name": "Read",
          "tool_use_id": "u",
        },
        "PostToolUseOnError": null,
        "PreToolUse": [
          {
            "hook_event_name": "PreToolUse",
            "tool_input": {
              "command": "rm -rf build",
              "cwd": "/repo/sub",
            },
            "tool_name": "Bash",
            "tool_use_id": "t1",
          },
          {
            "hook_event_name": "PreToolUse",
            "tool_input": {
              "file_path": "/repo/a.ts",
            },
            "tool_name": "Read",
            "tool_use_id": "t2",
          },
          {
            "hook_event_name": "PreToolUse",
            "tool_input": {
              "title": "T",
            },
            "tool_name": "mcp__github__create_issue",
            "tool_use_id": "t3",
          },
          null,
          null,
        ],
        "SessionStart": {
          "hook_event_name": "SessionStart",
          "source": "resume",
        },
        "Stop": {
          "hook_event_name": "Stop",
          "stop_hook_active": false,
        },
        "SubagentStop": {
          "agent_type": "explore",
          "hook_event_name": "SubagentStop",
          "stop_hook_active": true,
        },
        "UserPromptSubmit": {
          "hook_event_name": "UserPromptSubmit",
          "prompt": "hi",
        },
        "afterFileEdit": "no marshaller (abstains)",
        "subagentStart": "no marshaller (abstains)",
      }
    `);
  });

  it('cursor: common fields', () => {
    const h = hook({ dialect: 'cursor', event: 'stop', wireEvent: 'stop', command: 'x', cwd: '/repo' });
    const stdin = DIALECTS.cursor.events.stop?.marshal(
      h,
      { status: 'aborted', loopCount: 3 },
      { ...ctx, model: { name: 'gpt', params: { t: 1 } } },
    ) as Record<string, unknown>;
    // Why: the version is this package's own (changes with each release); the rest is the shape.
    expect(stdin.cursor_version).toBe(`orca/${PACKAGE_VERSION}`);
    expect({ ...stdin, cursor_version: 'orca/<version>' }).toMatchInlineSnapshot(`
      {
        "conversation_id": "conv-1",
        "cursor_version": "orca/<version>",
        "generation_id": "gen-1",
        "hook_event_name": "stop",
        "loop_count": 3,
        "model": "gpt",
        "model_params": {
          "t": 1,
        },
        "status": "aborted",
        "transcript_path": null,
        "user_email": null,
        "workspace_roots": [
          "/repo",
        ],
      }
    `);
  });

  it('cursor: dedicated and generic tool events, dedicated events abstain for other tools', () => {
    const out = {
      beforeShellExecution: TOOLS.map((p) => marshal('cursor', 'toolGate', 'beforeShellExecution', p)),
      beforeMCPExecution: TOOLS.map((p) => marshal('cursor', 'toolGate', 'beforeMCPExecution', p)),
      beforeReadFile: TOOLS.map((p) => marshal('cursor', 'toolGate', 'beforeReadFile', p)),
      preToolUse: TOOLS.map((p) => marshal('cursor', 'toolGate', 'preToolUse', p)),
      afterShellExecution: marshal('cursor', 'afterToolUse', 'afterShellExecution', {
        toolName: 'run_shell',
        toolUseId: 'u',
        isError: false,
        input: { command: 'ls' },
        output: 'a',
        durationMs: 5,
      }),
      afterMCPExecution: marshal('cursor', 'afterToolUse', 'afterMCPExecution', {
        toolName: 'mcp__gh__list',
        toolUseId: 'u',
        isError: false,
        input: {},
        output: '{"n":1}',
      }),
      postToolUse: marshal('cursor', 'afterToolUse', 'postToolUse', {
        toolName: 'write_file',
        toolUseId: 'u',
        isError: false,
        input: { path: '/f', content: 'c' },
        output: 'ok',
      }),
      postToolUseFailure: marshal('cursor', 'afterToolUse', 'postToolUseFailure', {
        toolName: 'grep',
        toolUseId: 'u',
        isError: true,
        errorMessage: 'bad',
      }),
      postToolUseOnSuccessForFailureHook: marshal('cursor', 'afterToolUse', 'postToolUseFailure', {
        toolName: 'grep',
        toolUseId: 'u',
        isError: false,
      }),
    };
    expect(out).toMatchInlineSnapshot(`
      {
        "afterMCPExecution": {
          "duration": 0,
          "hook_event_name": "afterMCPExecution",
          "result_json": "{"n":1}",
          "tool_input": "{}",
          "tool_name": "list",
        },
        "afterShellExecution": {
          "command": "ls",
          "duration": 5,
          "hook_event_name": "afterShellExecution",
          "output": "a",
        },
        "beforeMCPExecution": [
          null,
          null,
          {
            "hook_event_name": "beforeMCPExecution",
            "tool_input": "{"title":"T"}",
            "tool_name": "create_issue",
          },
          null,
          null,
        ],
        "beforeReadFile": [
          null,
          {
            "content": "x",
            "file_path": "/repo/a.ts",
            "hook_event_name": "beforeReadFile",
          },
          null,
          null,
          null,
        ],
        "beforeShellExecution": [
          {
            "command": "rm -rf build",
            "hook_event_name": "beforeShellExecution",
          },
          null,
          null,
          null,
          null,
        ],
        "postToolUse": {
          "duration": 0,
          "hook_event_name": "postToolUse",
          "tool_input": {
            "content": "c",
            "file_path": "/f",
          },
          "tool_name": "Write",
          "tool_output": "ok",
          "tool_use_id": "u",
        },
        "postToolUseFailure": {
          "duration": 0,
          "error_message": "bad",
          "failure_type": "error",
          "hook_event_name": "postToolUseFailure",
          "is_interrupt": false,
          "tool_input": {},
          "tool_name": "Grep",
          "tool_output": "",
          "tool_use_id": "u",
        },
        "postToolUseOnSuccessForFailureHook": null,
        "preToolUse": [
          {
            "hook_event_name": "preToolUse",
            "tool_input": {
              "command": "rm -rf build",
              "cwd": "/repo/sub",
            },
            "tool_name": "Shell",
            "tool_use_id": "t1",
          },
          {
            "hook_event_name": "preToolUse",
            "tool_input": {
              "file_path": "/repo/a.ts",
            },
            "tool_name": "Read",
            "tool_use_id": "t2",
          },
          {
            "hook_event_name": "preToolUse",
            "tool_input": {
              "title": "T",
            },
            "tool_name": "MCP:create_issue",
            "tool_use_id": "t3",
          },
          {
            "hook_event_name": "preToolUse",
            "tool_input": {
              "file_path": "/repo/b.ts",
            },
            "tool_name": "Delete",
            "tool_use_id": "t4",
          },
          {
            "hook_event_name": "preToolUse",
            "tool_input": {
              "k": 1,
            },
            "tool_name": "custom_tool",
            "tool_use_id": "t5",
          },
        ],
      }
    `);
  });

  it('cursor: prompt, file, stop, subagent and session events', () => {
    const out = {
      beforeSubmitPrompt: marshal('cursor', 'beforeSubmitPrompt', 'beforeSubmitPrompt', {
        prompt: 'p',
        attachments: [{ type: 'file', file_path: '/a' }],
      }),
      afterFileEdit: marshal('cursor', 'afterFileEdit', 'afterFileEdit', {
        filePath: '/repo/a.ts',
        edits: [{ old_string: 'a', new_string: 'b' }],
      }),
      stop: marshal('cursor', 'stop', 'stop', { status: 'error' }),
      subagentStart: marshal('cursor', 'subagentStart', 'subagentStart', {
        subagentType: 'explore',
        task: 't',
        model: 'fast',
      }),
      subagentStop: marshal('cursor', 'subagentStop', 'subagentStop', {
        subagentType: 'explore',
        status: 'completed',
        loopCount: 2,
      }),
      sessionStart: marshal('cursor', 'sessionStart', 'sessionStart', {}),
      beforeDiffApply: marshal('cursor', 'beforeDiffApply', 'x', { filePath: '/x' }),
    };
    expect(out).toMatchInlineSnapshot(`
      {
        "afterFileEdit": {
          "edits": [
            {
              "new_string": "b",
              "old_string": "a",
            },
          ],
          "file_path": "/repo/a.ts",
          "hook_event_name": "afterFileEdit",
        },
        "beforeDiffApply": "no marshaller (abstains)",
        "beforeSubmitPrompt": {
          "attachments": [
            {
              "file_path": "/a",
              "type": "file",
            },
          ],
          "hook_event_name": "beforeSubmitPrompt",
          "prompt": "p",
        },
        "sessionStart": {
          "composer_mode": "agent",
          "hook_event_name": "sessionStart",
          "is_background_agent": false,
        },
        "stop": {
          "hook_event_name": "stop",
          "loop_count": 0,
          "status": "error",
        },
        "subagentStart": {
          "hook_event_name": "subagentStart",
          "subagent_model": "fast",
          "subagent_type": "explore",
          "task": "t",
        },
        "subagentStop": {
          "hook_event_name": "subagentStop",
          "loop_count": 2,
          "status": "completed",
          "subagent_type": "explore",
        },
      }
    `);
  });

  it('orca: canonical names, snake_case payload, output capped', () => {
    const h = hook({ dialect: 'orca', event: 'afterToolUse', command: 'x', cwd: '/repo' });
    const req = DIALECTS.orca.events.afterToolUse?.marshal(
      h,
      { toolName: 'run_shell', toolUseId: 'u', isError: false, durationMs: 3, output: 'o'.repeat(20_000) },
      ctx,
    );
    expect(typeof req?.output === 'string' ? req.output.length : -1).toBe(16_000);
    expect(
      DIALECTS.orca.events.postTurnReview?.marshal(
        hook({ dialect: 'orca', event: 'postTurnReview', command: 'x', cwd: '/repo' }),
        { issuesFound: 2, summary: 's' },
        ctx,
      ),
    ).toMatchInlineSnapshot(`
      {
        "conversation_id": "conv-1",
        "generation_id": "gen-1",
        "hook_event_name": "postTurnReview",
        "issues_found": 2,
        "model": {
          "id": "m-1",
          "name": "sonnet",
        },
        "summary": "s",
        "workspace_roots": [
          "/repo",
        ],
      }
    `);
  });
});
