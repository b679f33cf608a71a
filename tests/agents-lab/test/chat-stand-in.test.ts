import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelServer } from '../src/model/loopback-server.ts';
import { chatToolCall, chatUserTurns, deferredToolCall, startChatServer } from '../src/model/openai-chat.ts';
import { byPrompt } from '../src/model/scenario.ts';

const fn = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties, required } },
});
// Tool schemas as opencode 1.18.33 and Qwen Code 0.24.4 offer them (names and argument names).
const OPENCODE_TOOLS = [
  fn('bash', { command: { type: 'string' }, description: { type: 'string' }, timeout: { type: 'number' } }, [
    'command',
    'description',
  ]),
  fn('write', { filePath: { type: 'string' }, content: { type: 'string' } }, ['filePath', 'content']),
  fn('edit', { filePath: {}, oldString: {}, newString: {}, replaceAll: { type: 'boolean' } }, ['filePath']),
  fn('webfetch', { url: {}, format: { type: 'string', enum: ['text', 'markdown', 'html'] } }, ['url', 'format']),
];
const QWEN_TOOLS = [
  fn('run_shell_command', { command: {}, description: {}, is_background: { type: 'boolean' } }, [
    'command',
    'is_background',
  ]),
  fn('edit', { file_path: {}, old_string: {}, new_string: {} }, ['file_path', 'old_string', 'new_string']),
];
// Droid 0.225.2 (airgap mode): `Execute`, `Edit`, `Create`, `Read`; no `FetchUrl` offered.
const DROID_TOOLS = [
  fn(
    'Execute',
    {
      summary: { type: 'string' },
      command: { type: 'string' },
      timeout: { type: 'number' },
      riskLevelReason: { type: 'string' },
      riskLevel: { type: 'string', enum: ['low', 'medium', 'high'] },
    },
    ['summary', 'command', 'riskLevelReason', 'riskLevel'],
  ),
  fn('Edit', { file_path: {}, old_str: {}, new_str: {}, change_all: { type: 'boolean' } }, [
    'file_path',
    'old_str',
    'new_str',
  ]),
  fn('Create', { file_path: {}, content: {} }, ['file_path', 'content']),
];
const offered = (tools: ReturnType<typeof fn>[]) =>
  tools.map((t) => ({
    name: t.function.name,
    properties: t.function.parameters.properties,
    required: t.function.parameters.required,
  }));

describe('Chat Completions stand-in: tool calls in each CLI’s own names', () => {
  it('fills opencode’s and Qwen Code’s argument names, and their other required arguments from the schema', () => {
    expect(chatToolCall({ tool: 'shell', command: 'sleep 4' }, offered(OPENCODE_TOOLS))).toEqual({
      name: 'bash',
      args: { command: 'sleep 4', description: 'Run a command' },
    });
    expect(chatToolCall({ tool: 'fetch', url: 'http://127.0.0.1:9/x' }, offered(OPENCODE_TOOLS))).toEqual({
      name: 'webfetch',
      args: { url: 'http://127.0.0.1:9/x', format: 'text' },
    });
    expect(chatToolCall({ tool: 'shell', command: 'ls' }, offered(QWEN_TOOLS))).toEqual({
      name: 'run_shell_command',
      args: { command: 'ls', description: 'Run a command', is_background: false },
    });
    expect(chatToolCall({ tool: 'edit', path: '/p/R.md', oldText: 'a', newText: 'b' }, offered(QWEN_TOOLS))).toEqual({
      name: 'edit',
      args: { file_path: '/p/R.md', old_string: 'a', new_string: 'b' },
    });
    expect(chatToolCall({ tool: 'write', path: '/p/x', content: 'y' }, offered(QWEN_TOOLS))).toBeNull();
  });

  it('fills Droid’s tools: the shell’s description is its `summary`, its risk fields from the schema', () => {
    expect(
      chatToolCall({ tool: 'shell', command: 'sleep 4', description: 'Run the slow tool' }, offered(DROID_TOOLS)),
    ).toEqual({
      name: 'Execute',
      args: { command: 'sleep 4', summary: 'Run the slow tool', riskLevelReason: expect.any(String), riskLevel: 'low' },
    });
    expect(chatToolCall({ tool: 'edit', path: '/p/R.md', oldText: 'a', newText: 'b' }, offered(DROID_TOOLS))).toEqual({
      name: 'Edit',
      args: { file_path: '/p/R.md', old_str: 'a', new_str: 'b' },
    });
    expect(chatToolCall({ tool: 'write', path: '/p/n.txt', content: 'hi' }, offered(DROID_TOOLS))).toEqual({
      name: 'Create',
      args: { file_path: '/p/n.txt', content: 'hi' },
    });
    expect(chatToolCall({ tool: 'fetch', url: 'http://127.0.0.1:9/x' }, offered(DROID_TOOLS))).toBeNull();
  });

  it('fills Copilot CLI’s tools (1.0.102 offline: bash, view, create, edit; no web tool)', () => {
    const copilot = offered([
      fn('bash', { command: {}, description: {}, shellId: {}, mode: { type: 'string' }, initial_wait: {} }, [
        'command',
        'description',
      ]),
      fn('view', { path: {}, view_range: { type: 'array' } }, ['path']),
      fn('create', { path: {}, file_text: {} }, ['path', 'file_text']),
      fn('edit', { path: {}, old_str: {}, new_str: {} }, ['path']),
    ]);
    expect(chatToolCall({ tool: 'shell', command: 'sleep 4', description: 'Run the slow tool' }, copilot)).toEqual({
      name: 'bash',
      args: { command: 'sleep 4', description: 'Run the slow tool' },
    });
    expect(chatToolCall({ tool: 'read', path: '/p/R.md' }, copilot)).toEqual({
      name: 'view',
      args: { path: '/p/R.md' },
    });
    expect(chatToolCall({ tool: 'write', path: '/p/n.txt', content: 'hi' }, copilot)).toEqual({
      name: 'create',
      args: { path: '/p/n.txt', file_text: 'hi' },
    });
    expect(chatToolCall({ tool: 'edit', path: '/p/R.md', oldText: 'a', newText: 'b' }, copilot)).toEqual({
      name: 'edit',
      args: { path: '/p/R.md', old_str: 'a', new_str: 'b' },
    });
    expect(chatToolCall({ tool: 'fetch', url: 'http://127.0.0.1:9/x' }, copilot)).toBeNull();
  });

  it('loads a tool Qwen Code hides: tool_search for it first, tool_call once the history holds that search', () => {
    const deferring = offered([
      ...QWEN_TOOLS,
      fn('tool_search', { query: {}, max_results: { type: 'integer' } }, ['query']),
      fn('tool_call', { name: {}, arguments: { type: 'object' } }, ['name', 'arguments']),
    ]);
    const call = { tool: 'fetch', url: 'http://127.0.0.1:9/x', prompt: 'Sum' } as const;
    expect(chatToolCall(call, deferring)).toBeNull();
    expect(deferredToolCall(call, deferring, { messages: [] })).toEqual({
      name: 'tool_search',
      args: { query: 'select:web_fetch', max_results: 1 },
      again: true,
    });
    const searched = {
      messages: [
        {
          role: 'assistant',
          tool_calls: [{ function: { name: 'tool_search', arguments: '{"query":"select:web_fetch"}' } }],
        },
      ],
    };
    expect(deferredToolCall(call, deferring, searched)).toEqual({
      name: 'tool_call',
      args: { name: 'web_fetch', arguments: { url: 'http://127.0.0.1:9/x', prompt: 'Sum http://127.0.0.1:9/x' } },
      again: false,
    });
    expect(deferredToolCall(call, offered(QWEN_TOOLS), searched)).toBeNull();
    expect(deferredToolCall({ tool: 'write', path: '/p/x', content: 'y' }, deferring, searched)).toBeNull();
  });

  it('leaves the CLIs’ own notes out of the user turns', () => {
    expect(
      chatUserTurns({
        messages: [
          { role: 'system', content: 'You are opencode' },
          { role: 'user', content: [{ type: 'text', text: '<system-reminder>skills</system-reminder>' }] },
          { role: 'user', content: [{ type: 'text', text: 'tell me a long story' }] },
          { role: 'tool', content: 'ok' },
        ],
      }),
    ).toEqual(['tell me a long story']);
  });
});

describe('Chat Completions stand-in over loopback', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startChatServer(
      byPrompt({ 'run it': [{ kind: 'tool', text: 'Running.', call: { tool: 'shell', command: 'ls' } }] }),
    );
  });
  afterAll(() => server.close());

  it('streams text, then the tool call, then [DONE]; a title request is auxiliary and takes no reply', async () => {
    const title = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        stream: true,
        messages: [
          { role: 'system', content: 'You are a title generator.' },
          { role: 'user', content: 'run it' },
        ],
      }),
    });
    expect(await title.text()).toContain('Lab session');
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'lab-model',
        stream: true,
        tools: OPENCODE_TOOLS,
        messages: [
          { role: 'system', content: 'You are opencode' },
          { role: 'user', content: 'run it' },
        ],
      }),
    });
    const events = (await res.text()).split('\n\n').filter((b) => b.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events
      .slice(0, -1)
      .map(
        (b) =>
          JSON.parse(b.slice(6)) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] },
      );
    const text = chunks.map((c) => String(c.choices[0]?.delta.content ?? '')).join('');
    expect(text).toBe('Running.');
    const call = chunks.flatMap(
      (c) => (c.choices[0]?.delta.tool_calls as { function: { name: string; arguments: string } }[] | undefined) ?? [],
    )[0];
    expect(call?.function.name).toBe('bash');
    expect(JSON.parse(call?.function.arguments ?? '{}')).toEqual({ command: 'ls', description: 'Run a command' });
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
    expect(server.requests.map((r) => r.role)).toEqual(['auxiliary', 'main']);
    expect(server.countCarrying('run it')).toBe(1);
  });
});
