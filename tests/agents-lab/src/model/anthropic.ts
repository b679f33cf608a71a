import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STREAM_DELTA_CHARS, STREAM_DELTA_PAUSE_MS } from '../limits.ts';
import { record, sendJson } from './json.ts';
import { type ModelServer, startModelServer, type VendorAdapter } from './loopback-server.ts';
import { chunkText, type Reply, type ReplyPicker, type ToolCall } from './scenario.ts';
import { openSse, type SseStream } from './sse.ts';

const MODEL = 'claude-sonnet-4-5';

/** Claude Code's tool name and input for a vendor-neutral call. */
export function claudeTool(call: ToolCall): { name: string; input: Record<string, unknown> } {
  switch (call.tool) {
    case 'shell':
      return { name: 'Bash', input: { command: call.command, description: call.description ?? 'Run a command' } };
    case 'write':
      return { name: 'Write', input: { file_path: call.path, content: call.content } };
    case 'edit':
      return { name: 'Edit', input: { file_path: call.path, old_string: call.oldText, new_string: call.newText } };
    case 'fetch':
      return { name: 'WebFetch', input: { url: call.url, prompt: call.prompt ?? 'Summarise the page' } };
    case 'read':
      return { name: 'Read', input: { file_path: call.path } };
  }
}

const CLIENT_NOTE = /^(?:<system-reminder>|Tool loaded\.?$|\[Request interrupted)/;

/** The user's text turns of a Messages API body (tool results and system reminders left out). */
export function anthropicUserTurns(body: unknown): string[] {
  const messages = record(body)?.messages;
  if (!Array.isArray(messages)) return [];
  const turns: string[] = [];
  for (const m of messages) {
    const msg = record(m);
    if (msg?.role !== 'user') continue;
    const content = msg.content;
    const texts: string[] = [];
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        const b = record(block);
        if (b?.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      }
    }
    // Why: the client's own notes (reminders, "Tool loaded.", interruption marks) are not the user's words.
    const own = texts.filter((t) => !CLIENT_NOTE.test(t.trimStart()));
    if (own.length > 0) turns.push(own.join('\n'));
  }
  return turns;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

async function streamText(sse: SseStream, index: number, text: string, pauseMs: number): Promise<boolean> {
  sse.send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
  for (const piece of chunkText(text, STREAM_DELTA_CHARS)) {
    sse.send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta');
    if (!(await sse.pause(pauseMs))) return false;
  }
  sse.send({ type: 'content_block_stop', index }, 'content_block_stop');
  return true;
}

/** Tool names a Messages API request offers. */
function offeredTools(body: unknown): Set<string> {
  const tools = record(body)?.tools;
  const names = new Set<string>();
  if (Array.isArray(tools))
    for (const t of tools) if (typeof record(t)?.name === 'string') names.add(String(record(t)?.name));
  return names;
}

async function streamReply(
  res: ServerResponse,
  reply: Reply,
  offered: Set<string> = new Set(),
): Promise<'again' | undefined> {
  const sse = openSse(res);
  sse.send(
    {
      type: 'message_start',
      message: {
        id: `msg_${randomUUID().replace(/-/g, '')}`,
        type: 'message',
        role: 'assistant',
        model: MODEL,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    },
    'message_start',
  );
  sse.send({ type: 'ping' }, 'ping');
  let stop = 'end_turn';
  let ok = true;
  if (reply.kind === 'text') ok = await streamText(sse, 0, reply.text, STREAM_DELTA_PAUSE_MS);
  else if (reply.kind === 'slow-text') {
    const pieces = Math.max(1, Math.ceil(reply.text.length / STREAM_DELTA_CHARS));
    ok = await streamText(sse, 0, reply.text, (reply.seconds * 1000) / pieces);
  } else if (reply.kind === 'tool') {
    let index = 0;
    if (reply.text) ok = await streamText(sse, index++, reply.text, STREAM_DELTA_PAUSE_MS);
    let { name, input } = claudeTool(reply.call);
    let again: 'again' | undefined;
    // Why: newer Claude Code builds defer some tools (WebFetch in 2.1.332) behind ToolSearch; a real
    // model loads the tool first, then calls it.
    if (!offered.has(name) && offered.has('ToolSearch')) {
      input = { query: `select:${name}`, max_results: 1 };
      name = 'ToolSearch';
      again = 'again';
    }
    const id = `toolu_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    sse.send(
      { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
      'content_block_start',
    );
    sse.send(
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } },
      'content_block_delta',
    );
    sse.send({ type: 'content_block_stop', index }, 'content_block_stop');
    stop = 'tool_use';
    if (again) {
      finish(sse, stop);
      return again;
    }
  }
  if (!ok) return undefined;
  finish(sse, stop);
  return undefined;
}

function finish(sse: SseStream, stop: string): void {
  sse.send(
    { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 12 } },
    'message_delta',
  );
  sse.send({ type: 'message_stop' }, 'message_stop');
  sse.end();
}

function textMessage(text: string): Record<string, unknown> {
  return {
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 3 },
  };
}

/** The Anthropic Messages API, as much of it as Claude Code needs for a turn. */
export const anthropicAdapter: VendorAdapter = {
  name: 'anthropic',
  classify(method, path, body) {
    if (method !== 'POST' || !path.startsWith('/v1/messages') || path.startsWith('/v1/messages/count_tokens')) {
      return { role: 'other', userTurns: [] };
    }
    const tools = record(body)?.tools;
    const role = Array.isArray(tools) && tools.length > 0 ? 'main' : 'auxiliary';
    return { role, userTurns: anthropicUserTurns(body) };
  },
  async answer(res, reply, request) {
    if (reply.kind === 'error') {
      const type = ERROR_TYPES[reply.status] ?? 'api_error';
      sendJson(res, reply.status, { type: 'error', error: { type, message: reply.message ?? `scripted ${type}` } });
      return undefined;
    }
    if (record(request.body)?.stream === true) return streamReply(res, reply, offeredTools(request.body));
    sendJson(res, 200, textMessage(reply.kind === 'tool' ? (reply.text ?? '') : reply.text));
    return undefined;
  },
  async answerOther(res, request) {
    if (request.path.startsWith('/v1/messages/count_tokens')) {
      sendJson(res, 200, { input_tokens: 100 });
      return;
    }
    if (request.method === 'POST' && request.path.startsWith('/v1/messages')) {
      // Why: auxiliary calls (session title, topic) want a short plain answer.
      const reply: Reply = { kind: 'text', text: 'Lab session' };
      if (record(request.body)?.stream === true) await streamReply(res, reply);
      else sendJson(res, 200, textMessage(reply.text));
      return;
    }
    sendJson(res, 200, {});
  },
};

/** Starts an Anthropic Messages API stand-in on 127.0.0.1 (`ANTHROPIC_BASE_URL`). */
export function startAnthropicServer(picker: ReplyPicker): Promise<ModelServer> {
  return startModelServer(anthropicAdapter, picker);
}
