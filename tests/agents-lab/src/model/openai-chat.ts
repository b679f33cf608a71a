import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { STREAM_DELTA_CHARS, STREAM_DELTA_PAUSE_MS } from '../limits.ts';
import { fillSchema } from './gemini.ts';
import { record, sendJson } from './json.ts';
import { type ModelServer, startModelServer, type VendorAdapter } from './loopback-server.ts';
import { chunkText, type Reply, type ReplyPicker, type ToolCall } from './scenario.ts';
import { openSse, type SseStream } from './sse.ts';

/**
 * The OpenAI Chat Completions API (`POST /v1/chat/completions`, streamed), the wire most agent
 * CLIs speak to a custom provider: opencode (`@ai-sdk/openai-compatible`), Qwen Code
 * (`OPENAI_BASE_URL`), Copilot CLI (`COPILOT_PROVIDER_BASE_URL`), Droid (`customModels`,
 * `generic-chat-completion-api`). Each CLI names its tools and their arguments its own way; the
 * stand-in reads the tool list of the request and fills the call from the offered schema.
 */

/** Tool names each CLI offers for a vendor-neutral tool, most specific first. */
const TOOL_NAMES: Readonly<Record<ToolCall['tool'], readonly string[]>> = {
  shell: ['bash', 'run_shell_command', 'Execute', 'shell'],
  write: ['write', 'write_file', 'create', 'Create'],
  edit: ['edit', 'replace', 'Edit', 'str_replace'],
  read: ['read', 'read_file', 'view', 'Read'],
  fetch: ['webfetch', 'web_fetch', 'fetch', 'FetchUrl'],
};

/**
 * Tools a CLI hides until the model asks for them (Qwen Code 0.24.4: `tool_search` with
 * `select:<name>`, then `tool_call` with the name and arguments), with the arguments they take.
 */
function deferredTool(call: ToolCall): { name: string; args: Record<string, unknown> } | null {
  if (call.tool !== 'fetch') return null;
  return { name: 'web_fetch', args: { url: call.url, prompt: `${call.prompt ?? 'Summarise'} ${call.url}` } };
}

/** Argument names each CLI uses for one meaning. */
const ARG_NAMES = {
  command: ['command', 'cmd'],
  // Why: Droid's `Execute` names it `summary` (a 3–8 word sentence-case line, 0.225.2).
  description: ['description', 'summary'],
  path: ['filePath', 'file_path', 'absolute_path', 'path'],
  content: ['content', 'file_text'],
  oldText: ['oldString', 'old_string', 'old_str'],
  newText: ['newString', 'new_string', 'new_str'],
  url: ['url'],
  prompt: ['prompt'],
  format: ['format'],
} as const;

/** System prompts of a CLI's side requests (titles, memory, summaries): never a main turn. */
const AUXILIARY_SYSTEM =
  /title generator|generate a (?:short |brief )?title|managed memory|acting as the|summar(?:y|ize) the conversation/i;

/** A tool a request offers: its name and its JSON-schema properties. */
export interface OfferedTool {
  readonly name: string;
  readonly properties: Record<string, unknown>;
  readonly required: readonly string[];
}

function offeredTools(body: unknown): OfferedTool[] {
  const tools = record(body)?.tools;
  if (!Array.isArray(tools)) return [];
  const out: OfferedTool[] = [];
  for (const t of tools) {
    const fn = record(record(t)?.function) ?? record(t);
    const name = fn?.name;
    if (typeof name !== 'string') continue;
    const params = record(fn?.parameters) ?? record(fn?.input_schema) ?? {};
    const required = Array.isArray(params.required) ? params.required.filter((r) => typeof r === 'string') : [];
    out.push({ name, properties: record(params.properties) ?? {}, required });
  }
  return out;
}

function pickArg(tool: OfferedTool, meaning: keyof typeof ARG_NAMES): string | undefined {
  return ARG_NAMES[meaning].find((n) => n in tool.properties);
}

/**
 * The call a CLI gets for a vendor-neutral tool: the first offered tool of {@link TOOL_NAMES},
 * arguments named as its schema names them, other required arguments filled from the schema.
 * Null when the request offers no such tool.
 */
export function chatToolCall(
  call: ToolCall,
  offered: readonly OfferedTool[],
): { name: string; args: Record<string, unknown> } | null {
  const tool = TOOL_NAMES[call.tool].map((n) => offered.find((t) => t.name === n)).find((t) => t !== undefined);
  if (!tool) return null;
  const args: Record<string, unknown> = {};
  const set = (meaning: keyof typeof ARG_NAMES, value: string | undefined) => {
    const key = pickArg(tool, meaning);
    if (key !== undefined && value !== undefined) args[key] = value;
  };
  switch (call.tool) {
    case 'shell':
      set('command', call.command);
      set('description', call.description ?? 'Run a command');
      break;
    case 'write':
      set('path', call.path);
      set('content', call.content);
      break;
    case 'edit':
      set('path', call.path);
      set('oldText', call.oldText);
      set('newText', call.newText);
      break;
    case 'read':
      set('path', call.path);
      break;
    case 'fetch':
      set('url', call.url);
      set('prompt', `${call.prompt ?? 'Summarise'} ${call.url}`);
      set('format', 'text');
      break;
  }
  for (const key of tool.required) if (!(key in args)) args[key] = fillSchema(tool.properties[key]);
  return { name: tool.name, args };
}

/** The user's text turns of a Chat Completions body (tool results and client notes left out). */
export function chatUserTurns(body: unknown): string[] {
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
      for (const part of content) {
        const p = record(part);
        if (p?.type === 'text' && typeof p.text === 'string') texts.push(p.text);
      }
    }
    // Why: CLIs put their own notes (reminders, environment context) into user messages.
    const own = texts.filter((t) => !/^\s*<(?:system-reminder|environment|session_context)/.test(t));
    if (own.length > 0) turns.push(own.join('\n'));
  }
  return turns;
}

function systemPrompt(body: unknown): string {
  const messages = record(body)?.messages;
  if (!Array.isArray(messages)) return '';
  const first = record(messages[0]);
  if (first?.role !== 'system') return '';
  const c = first.content;
  if (typeof c === 'string') return c.slice(0, 2000);
  if (Array.isArray(c))
    return c
      .map((p) => String(record(p)?.text ?? ''))
      .join(' ')
      .slice(0, 2000);
  return '';
}

function usage(): Record<string, unknown> {
  return { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 };
}

/** Tool names the request's history already asked `tool_search` to select. */
function searchedTools(body: unknown): Set<string> {
  const names = new Set<string>();
  const messages = record(body)?.messages;
  if (!Array.isArray(messages)) return names;
  for (const m of messages) {
    const calls = record(m)?.tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const c of calls) {
      const fn = record(record(c)?.function);
      if (fn?.name !== 'tool_search' || typeof fn.arguments !== 'string') continue;
      const select = /select:([\w,-]+)/.exec(fn.arguments);
      for (const name of select?.[1]?.split(',') ?? []) names.add(name);
    }
  }
  return names;
}

/**
 * The call for a tool the request does not offer but can load: `tool_search` first (then the same
 * reply answers the next request: `again`), `tool_call` once the history holds that search.
 */
export function deferredToolCall(
  call: ToolCall,
  offered: readonly OfferedTool[],
  body: unknown,
): { name: string; args: Record<string, unknown>; again: boolean } | null {
  const deferred = deferredTool(call);
  const names = new Set(offered.map((t) => t.name));
  if (!deferred || !names.has('tool_search') || !names.has('tool_call')) return null;
  if (!searchedTools(body).has(deferred.name)) {
    return { name: 'tool_search', args: { query: `select:${deferred.name}`, max_results: 1 }, again: true };
  }
  return { name: 'tool_call', args: { name: deferred.name, arguments: deferred.args }, again: false };
}

async function streamReply(
  res: ServerResponse,
  reply: Reply,
  offered: readonly OfferedTool[],
  model: string,
  body: unknown = {},
): Promise<'again' | undefined> {
  const sse: SseStream = openSse(res);
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    sse.send({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  chunk({ role: 'assistant', content: '' });
  const text =
    reply.kind === 'text' || reply.kind === 'slow-text' ? reply.text : reply.kind === 'tool' ? reply.text : '';
  const pieces = text ? chunkText(text, STREAM_DELTA_CHARS) : [];
  const pause =
    reply.kind === 'slow-text' ? (reply.seconds * 1000) / Math.max(1, pieces.length) : STREAM_DELTA_PAUSE_MS;
  for (const piece of pieces) {
    chunk({ content: piece });
    if (!(await sse.pause(pause))) return undefined;
  }
  let finish = 'stop';
  let again: 'again' | undefined;
  if (reply.kind === 'tool') {
    const direct = chatToolCall(reply.call, offered);
    const deferred = direct ? null : deferredToolCall(reply.call, offered, body);
    const call = direct ?? deferred;
    if (deferred?.again) again = 'again';
    if (call) {
      chunk({
        tool_calls: [
          {
            index: 0,
            id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          },
        ],
      });
      finish = 'tool_calls';
    } else chunk({ content: `(the lab wanted a ${reply.call.tool} tool; none was offered)` });
  }
  chunk({}, finish);
  sse.send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: usage() });
  res.write('data: [DONE]\n\n');
  sse.end();
  return again;
}

/** The OpenAI Chat Completions API, as much as the CLIs of the lab use for a turn. */
export const chatAdapter: VendorAdapter = {
  name: 'openai-chat',
  classify(method, path, body) {
    if (method !== 'POST' || !path.includes('/chat/completions')) return { role: 'other', userTurns: [] };
    const tools = record(body)?.tools;
    const main = Array.isArray(tools) && tools.length > 0 && !AUXILIARY_SYSTEM.test(systemPrompt(body));
    return { role: main ? 'main' : 'auxiliary', userTurns: chatUserTurns(body) };
  },
  async answer(res, reply, request) {
    if (reply.kind === 'error') {
      // Why: as OpenAI's API types them; opencode retries a `server_error` whatever the status.
      const type =
        reply.status >= 500 ? 'server_error' : reply.status === 429 ? 'rate_limit_error' : 'invalid_request_error';
      sendJson(res, reply.status, {
        error: { message: reply.message ?? `scripted error ${reply.status}`, type, code: null },
      });
      return undefined;
    }
    const model = String(record(request.body)?.model ?? 'lab-model');
    if (record(request.body)?.stream === true) {
      return await streamReply(res, reply, offeredTools(request.body), model, request.body);
    } else {
      const text = reply.kind === 'tool' ? (reply.text ?? '') : reply.text;
      sendJson(res, 200, {
        id: `chatcmpl-${randomUUID().replace(/-/g, '')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: usage(),
      });
    }
    return undefined;
  },
  async answerOther(res, request) {
    if (request.method === 'POST' && request.path.includes('/chat/completions')) {
      // Why: titles, memory and summaries want a short plain answer.
      const model = String(record(request.body)?.model ?? 'lab-model');
      if (record(request.body)?.stream === true)
        await streamReply(res, { kind: 'text', text: 'Lab session' }, [], model);
      else
        sendJson(res, 200, {
          id: 'chatcmpl-lab',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Lab session' }, finish_reason: 'stop' }],
          usage: usage(),
        });
      return;
    }
    if (request.path.includes('/models')) {
      sendJson(res, 200, { object: 'list', data: [{ id: LAB_CHAT_MODEL, object: 'model', owned_by: 'lab' }] });
      return;
    }
    sendJson(res, 404, { error: { message: `the lab stand-in does not serve ${request.path}` } });
  },
};

/** The model id every chat-completions profile configures. */
export const LAB_CHAT_MODEL = 'lab-model';

/** Starts an OpenAI Chat Completions stand-in on 127.0.0.1 (base URL `<url>/v1`). */
export function startChatServer(picker: ReplyPicker): Promise<ModelServer> {
  return startModelServer(chatAdapter, picker);
}
