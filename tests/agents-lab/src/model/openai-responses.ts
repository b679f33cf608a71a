import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STREAM_DELTA_CHARS, STREAM_DELTA_PAUSE_MS } from '../limits.ts';
import { record, sendJson } from './json.ts';
import { type ModelServer, startModelServer, type VendorAdapter } from './loopback-server.ts';
import { chunkText, type Reply, type ReplyPicker, type ToolCall } from './scenario.ts';
import { openSse, type SseStream } from './sse.ts';

/** The user's text turns of a Responses API body (`input` items with role `user`). */
export function responsesUserTurns(body: unknown): string[] {
  const input = record(body)?.input;
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [];
  const turns: string[] = [];
  for (const item of input) {
    const it = record(item);
    if (it?.role !== 'user') continue;
    const content = it.content;
    const texts: string[] = [];
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const p = record(part);
        if ((p?.type === 'input_text' || p?.type === 'text') && typeof p.text === 'string') texts.push(p.text);
      }
    }
    // Why: Codex sends its environment context and AGENTS.md as user items before the prompt.
    const own = texts.filter((t) => !/^\s*<(environment_context|user_instructions|permissions)/.test(t));
    if (own.length > 0) turns.push(own.join('\n'));
  }
  return turns;
}

/** A Codex function call (`exec_command`, …) for a vendor-neutral tool call. */
export function codexTool(call: ToolCall): { name: string; arguments: Record<string, unknown> } {
  switch (call.tool) {
    case 'shell':
      return {
        name: 'exec_command',
        arguments: {
          cmd: call.command,
          sandbox_permissions: 'require_escalated',
          justification: call.description ?? 'Run a command the task needs',
        },
      };
    case 'write':
    case 'edit': {
      const body =
        call.tool === 'write'
          ? `*** Add File: ${call.path}\n${call.content
              .split('\n')
              .map((l) => `+${l}`)
              .join('\n')}`
          : `*** Update File: ${call.path}\n@@\n-${call.oldText}\n+${call.newText}`;
      // Why: Codex offers no apply_patch tool to a custom provider's model; it intercepts an
      // `apply_patch` heredoc run through exec_command and shows its edit approval instead.
      return {
        name: 'exec_command',
        arguments: { cmd: `apply_patch <<'PATCH'\n*** Begin Patch\n${body}\n*** End Patch\nPATCH` },
      };
    }
    case 'read':
      return { name: 'exec_command', arguments: { cmd: `cat ${call.path}` } };
    case 'fetch':
      return {
        name: 'exec_command',
        arguments: {
          cmd: `curl -fsS ${call.url}`,
          sandbox_permissions: 'require_escalated',
          justification: call.prompt ?? 'Fetch a page',
        },
      };
  }
}

function usage(): Record<string, unknown> {
  return {
    input_tokens: 20,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 8,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 28,
  };
}

async function streamMessage(sse: SseStream, index: number, text: string, pauseMs: number): Promise<unknown | null> {
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const item = { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] };
  sse.send({ type: 'response.output_item.added', output_index: index, item }, 'response.output_item.added');
  for (const piece of chunkText(text, STREAM_DELTA_CHARS)) {
    sse.send(
      { type: 'response.output_text.delta', item_id: id, output_index: index, content_index: 0, delta: piece },
      'response.output_text.delta',
    );
    if (!(await sse.pause(pauseMs))) return null;
  }
  const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  sse.send({ type: 'response.output_item.done', output_index: index, item: done }, 'response.output_item.done');
  return done;
}

async function streamReply(res: ServerResponse, reply: Reply): Promise<void> {
  const sse = openSse(res);
  const id = `resp_${randomUUID().replace(/-/g, '')}`;
  sse.send({ type: 'response.created', response: { id, status: 'in_progress', output: [] } }, 'response.created');
  const output: unknown[] = [];
  if (reply.kind === 'text' || reply.kind === 'slow-text') {
    const pause =
      reply.kind === 'slow-text'
        ? (reply.seconds * 1000) / Math.max(1, Math.ceil(reply.text.length / STREAM_DELTA_CHARS))
        : STREAM_DELTA_PAUSE_MS;
    const done = await streamMessage(sse, 0, reply.text, pause);
    if (done === null) return;
    output.push(done);
  } else if (reply.kind === 'tool') {
    if (reply.text) {
      const done = await streamMessage(sse, 0, reply.text, STREAM_DELTA_PAUSE_MS);
      if (done === null) return;
      output.push(done);
    }
    const { name, arguments: args } = codexTool(reply.call);
    const item = {
      type: 'function_call',
      id: `fc_${randomUUID().replace(/-/g, '')}`,
      call_id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      name,
      arguments: JSON.stringify(args),
      status: 'completed',
    };
    sse.send({ type: 'response.output_item.added', output_index: output.length, item }, 'response.output_item.added');
    sse.send({ type: 'response.output_item.done', output_index: output.length, item }, 'response.output_item.done');
    output.push(item);
  }
  sse.send(
    { type: 'response.completed', response: { id, status: 'completed', output, usage: usage() } },
    'response.completed',
  );
  sse.end();
}

/** The OpenAI Responses API (`wire_api = "responses"`), as much as Codex needs for a turn. */
export const responsesAdapter: VendorAdapter = {
  name: 'openai-responses',
  classify(method, path, body) {
    if (method !== 'POST' || !path.startsWith('/v1/responses')) return { role: 'other', userTurns: [] };
    const tools = record(body)?.tools;
    const role = Array.isArray(tools) && tools.length > 0 ? 'main' : 'auxiliary';
    return { role, userTurns: responsesUserTurns(body) };
  },
  async answer(res, reply) {
    if (reply.kind === 'error') {
      sendJson(res, reply.status, {
        error: { message: reply.message ?? `scripted error ${reply.status}`, type: 'server_error', code: null },
      });
      return undefined;
    }
    await streamReply(res, reply);
    return undefined;
  },
  async answerOther(res, request) {
    if (request.method === 'POST' && request.path.startsWith('/v1/responses')) {
      await streamReply(res, { kind: 'text', text: 'Lab session' });
      return;
    }
    if (request.path.startsWith('/v1/models')) {
      sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-5', object: 'model' }], models: [] });
      return;
    }
    sendJson(res, 200, {});
  },
};

/** Starts an OpenAI Responses API stand-in on 127.0.0.1 (a Codex `model_providers` `base_url`). */
export function startResponsesServer(picker: ReplyPicker): Promise<ModelServer> {
  return startModelServer(responsesAdapter, picker);
}
