import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUserTurns, startAnthropicServer } from '../src/model/anthropic.ts';
import { geminiUserTurns, startGeminiServer } from '../src/model/gemini.ts';
import type { ModelServer } from '../src/model/loopback-server.ts';
import { responsesUserTurns, startResponsesServer } from '../src/model/openai-responses.ts';
import { byPrompt, type ReplyPicker, scripted } from '../src/model/scenario.ts';

/** `data:` payloads of an SSE body, parsed. */
function sseData(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice('data: '.length)) as Record<string, unknown>);
}

async function post(server: ModelServer, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const TOOL_FLOW: ReplyPicker = scripted([
  { kind: 'text', text: 'hello from the stand-in' },
  { kind: 'tool', call: { tool: 'shell', command: 'ls -la' }, text: 'Listing.' },
  { kind: 'error', status: 529 },
]);

describe('Anthropic Messages stand-in', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startAnthropicServer(TOOL_FLOW);
  });
  afterAll(() => server.close());
  const main = (text: string) => ({
    stream: true,
    tools: [{ name: 'Bash', input_schema: {} }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>x</system-reminder>' },
          { type: 'text', text },
        ],
      },
    ],
  });

  it('listens on loopback only', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('streams text, then a tool_use block, then the scripted error', async () => {
    const first = sseData((await post(server, '/v1/messages?beta=true', main('hi'))).text);
    const text = first
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => (e.delta as { text?: string }).text ?? '')
      .join('');
    expect(text).toBe('hello from the stand-in');
    expect(first.at(-1)).toEqual({ type: 'message_stop' });
    const second = sseData((await post(server, '/v1/messages?beta=true', main('run ls'))).text);
    const start = second.find((e) => (e.content_block as { type?: string } | undefined)?.type === 'tool_use');
    expect((start?.content_block as { name?: string } | undefined)?.name).toBe('Bash');
    const json = second.find((e) => (e.delta as { type?: string } | undefined)?.type === 'input_json_delta');
    expect(JSON.parse((json?.delta as { partial_json?: string } | undefined)?.partial_json ?? 'null')).toEqual({
      command: 'ls -la',
      description: 'Run a command',
    });
    expect(second.find((e) => e.type === 'message_delta')?.delta).toEqual({
      stop_reason: 'tool_use',
      stop_sequence: null,
    });
    const third = await post(server, '/v1/messages?beta=true', main('again'));
    expect(third.status).toBe(529);
    expect(JSON.parse(third.text)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'scripted overloaded_error' },
    });
  });

  it('records requests: a tool-less call is auxiliary and consumes no reply', async () => {
    const before = server.requests.filter((r) => r.role === 'main').length;
    await post(server, '/v1/messages', { stream: false, messages: [{ role: 'user', content: 'title please' }] });
    expect(server.requests.at(-1)?.role).toBe('auxiliary');
    expect(server.requests.filter((r) => r.role === 'main').length).toBe(before);
    expect(server.countCarrying('run ls')).toBe(1);
  });

  it('reads the user turns without client notes or tool results', () => {
    expect(
      anthropicUserTurns({
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't', content: 'x' },
              { type: 'text', text: '[Request interrupted by user for tool use]' },
              { type: 'text', text: 'second' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'u' },
              { type: 'text', text: 'Tool loaded.' },
            ],
          },
        ],
      }),
    ).toEqual(['first', 'second']);
  });
});

describe('OpenAI Responses stand-in', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startResponsesServer(TOOL_FLOW);
  });
  afterAll(() => server.close());
  const main = (text: string) => ({
    stream: true,
    tools: [{ type: 'function', name: 'exec_command' }],
    input: [
      { role: 'user', content: [{ type: 'input_text', text: '<environment_context>x</environment_context>' }] },
      { role: 'user', content: [{ type: 'input_text', text }] },
    ],
  });

  it('streams output_text deltas and completes; then an escalated exec_command call; then the error', async () => {
    const first = sseData((await post(server, '/v1/responses', main('hi'))).text);
    expect(
      first
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('hello from the stand-in');
    expect(first.at(-1)?.type).toBe('response.completed');
    const second = sseData((await post(server, '/v1/responses', main('run ls'))).text);
    const call = second.find((e) => (e.item as { type?: string } | undefined)?.type === 'function_call')?.item as {
      name: string;
      arguments: string;
    };
    expect(call.name).toBe('exec_command');
    expect(JSON.parse(call.arguments)).toEqual({
      cmd: 'ls -la',
      sandbox_permissions: 'require_escalated',
      justification: 'Run a command the task needs',
    });
    expect((await post(server, '/v1/responses', main('again'))).status).toBe(529);
    expect(responsesUserTurns(main('x'))).toEqual(['x']);
  });
});

describe('Gemini stand-in', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startGeminiServer(TOOL_FLOW);
  });
  afterAll(() => server.close());
  const main = (text: string) => ({
    tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
    contents: [{ role: 'user', parts: [{ text }] }],
  });

  it('answers a routing call in the JSON schema it asks for', async () => {
    const res = await post(server, '/v1beta/models/flash-lite:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'route' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'object',
          properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer', minimum: 1 } },
        },
      },
    });
    const body = JSON.parse(res.text) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({
      complexity_reasoning: 'lab',
      complexity_score: 1,
    });
  });

  it('streams text chunks, then a functionCall, then the error in Google form', async () => {
    const path = '/v1beta/models/pro:streamGenerateContent?alt=sse';
    const first = sseData((await post(server, path, main('hi'))).text);
    const parts = first.flatMap(
      (c) => (c.candidates as { content: { parts: { text?: string }[] } }[])[0]?.content.parts ?? [],
    );
    expect(parts.map((p) => p.text ?? '').join('')).toBe('hello from the stand-in');
    const second = sseData((await post(server, path, main('run ls'))).text);
    const fn = second
      .flatMap((c) => (c.candidates as { content: { parts: { functionCall?: unknown }[] } }[])[0]?.content.parts ?? [])
      .find((p) => p.functionCall);
    expect(fn?.functionCall).toEqual({ name: 'run_shell_command', args: { command: 'ls -la', description: '' } });
    const third = await post(server, path, main('again'));
    expect(third.status).toBe(529);
    expect(JSON.parse(third.text).error.status).toBe('UNAVAILABLE');
    expect(geminiUserTurns(main('x'))).toEqual(['x']);
  });
});

describe('byPrompt', () => {
  it('answers each prompt from its own list, longest key first, then the fallback', () => {
    const pick = byPrompt({
      write: [{ kind: 'text', text: 'w' }],
      'write a file': [
        { kind: 'text', text: 'wf1' },
        { kind: 'text', text: 'wf2' },
      ],
    });
    const req = (t: string) => ({
      at: 0,
      method: 'POST',
      path: '/',
      body: null,
      role: 'main' as const,
      userTurns: [t],
    });
    expect(pick(0, req('please write a file'))).toEqual({ kind: 'text', text: 'wf1' });
    expect(pick(1, req('please write a file'))).toEqual({ kind: 'text', text: 'wf2' });
    expect(pick(2, req('please write a file'))).toEqual({ kind: 'text', text: 'Done.' });
    expect(pick(3, req('write'))).toEqual({ kind: 'text', text: 'w' });
    expect(pick(4, req('unrelated'))).toEqual({ kind: 'text', text: 'Done.' });
  });
});

describe('every stand-in answers any bytes on any path without throwing (property)', () => {
  const starters = { anthropic: startAnthropicServer, responses: startResponsesServer, gemini: startGeminiServer };
  for (const [name, start] of Object.entries(starters)) {
    it(name, async () => {
      const server = await start(scripted([], { kind: 'text', text: 'ok' }));
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('/v1/messages', '/v1/responses', '/v1beta/models/x:streamGenerateContent', '/', '/%ff?x'),
            fc.oneof(
              fc.uint8Array({ maxLength: 2048 }),
              fc.json().map((j) => new TextEncoder().encode(j)),
            ),
            async (path, bytes) => {
              const res = await fetch(`${server.url}${path}`, { method: 'POST', body: bytes });
              await res.arrayBuffer();
              return res.status >= 200 && res.status < 600;
            },
          ),
          { numRuns: 60 },
        );
        const alive = await fetch(`${server.url}/`, { method: 'HEAD' });
        expect(alive.status).toBe(200);
      } finally {
        await server.close();
      }
    });
  }
});
