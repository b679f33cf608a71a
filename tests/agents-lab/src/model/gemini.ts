import type { ServerResponse } from 'node:http';
import { STREAM_DELTA_CHARS, STREAM_DELTA_PAUSE_MS } from '../limits.ts';
import { record, sendJson } from './json.ts';
import { type ModelServer, startModelServer, type VendorAdapter } from './loopback-server.ts';
import { chunkText, type Reply, type ReplyPicker, type ToolCall } from './scenario.ts';
import { openSse } from './sse.ts';

const MODEL_VERSION = 'gemini-2.5-pro';

/** The user's text turns of a `generateContent` body (function responses left out). */
export function geminiUserTurns(body: unknown): string[] {
  const contents = record(body)?.contents;
  if (!Array.isArray(contents)) return [];
  const turns: string[] = [];
  for (const c of contents) {
    const content = record(c);
    if (content?.role !== 'user' || !Array.isArray(content.parts)) continue;
    const texts: string[] = [];
    for (const part of content.parts) {
      const p = record(part);
      if (typeof p?.text === 'string') texts.push(p.text);
    }
    // Why: Gemini CLI opens every chat with a user turn describing the environment.
    // Why: after a cancelled turn Gemini CLI folds the next prompt into the same user content, one
    // text part per prompt; each part is a turn of its own.
    for (const t of texts)
      if (!t.startsWith('<session_context>') && !t.startsWith('This is the Gemini CLI')) turns.push(t);
  }
  return turns;
}

/** Gemini CLI's tool name and args for a vendor-neutral call. */
export function geminiTool(call: ToolCall): { name: string; args: Record<string, unknown> } {
  switch (call.tool) {
    case 'shell':
      return { name: 'run_shell_command', args: { command: call.command, description: call.description ?? '' } };
    case 'write':
      return { name: 'write_file', args: { file_path: call.path, content: call.content } };
    case 'edit':
      return {
        name: 'replace',
        args: { file_path: call.path, old_string: call.oldText, new_string: call.newText, instruction: 'Edit' },
      };
    case 'fetch':
      return { name: 'web_fetch', args: { prompt: `${call.prompt ?? 'Summarise'} ${call.url}` } };
    case 'read':
      return { name: 'read_file', args: { file_path: call.path } };
  }
}

/** A value satisfying a (simple) JSON schema: first enum value, strings, numbers, nested objects. */
export function fillSchema(schema: unknown, depth = 0): unknown {
  const s = record(schema);
  if (!s || depth > 8) return null;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = typeof s.type === 'string' ? s.type.toLowerCase() : Array.isArray(s.type) ? String(s.type[0]) : '';
  if (type === 'object' || record(s.properties)) {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(record(s.properties) ?? {})) out[key] = fillSchema(sub, depth + 1);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
  if (type === 'boolean') return false;
  return 'lab';
}

function usage(): Record<string, unknown> {
  return { promptTokenCount: 20, candidatesTokenCount: 8, totalTokenCount: 28 };
}

function chunk(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata: usage(),
    modelVersion: MODEL_VERSION,
  };
}

async function streamReply(res: ServerResponse, reply: Reply): Promise<void> {
  const sse = openSse(res);
  const text =
    reply.kind === 'text' || reply.kind === 'slow-text' ? reply.text : reply.kind === 'tool' ? reply.text : '';
  const pieces = text ? chunkText(text, STREAM_DELTA_CHARS) : [];
  const pause =
    reply.kind === 'slow-text' ? (reply.seconds * 1000) / Math.max(1, pieces.length) : STREAM_DELTA_PAUSE_MS;
  for (const piece of pieces) {
    sse.send(chunk([{ text: piece }]));
    if (!(await sse.pause(pause))) return;
  }
  if (reply.kind === 'tool') {
    const { name, args } = geminiTool(reply.call);
    sse.send(chunk([{ functionCall: { name, args } }], 'STOP'));
  } else {
    sse.send(chunk([{ text: '' }], 'STOP'));
  }
  sse.end();
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  529: 'UNAVAILABLE',
};

/** The Gemini API (`generateContent`, `streamGenerateContent?alt=sse`), as much as Gemini CLI needs. */
export const geminiAdapter: VendorAdapter = {
  name: 'gemini',
  classify(method, path, body) {
    if (method !== 'POST' || !path.includes(':')) return { role: 'other', userTurns: [] };
    const streaming = path.includes(':streamGenerateContent');
    const tools = record(body)?.tools;
    const role = streaming && Array.isArray(tools) && tools.length > 0 ? 'main' : 'auxiliary';
    return { role, userTurns: geminiUserTurns(body) };
  },
  async answer(res, reply) {
    if (reply.kind === 'error') {
      sendJson(res, reply.status, {
        error: {
          code: reply.status,
          message: reply.message ?? `scripted error ${reply.status}`,
          status: STATUS_NAMES[reply.status] ?? 'INTERNAL',
        },
      });
      return undefined;
    }
    await streamReply(res, reply);
    return undefined;
  },
  async answerOther(res, request) {
    const path = request.path;
    if (path.includes(':countTokens')) {
      sendJson(res, 200, { totalTokens: 20 });
      return;
    }
    if (path.includes(':streamGenerateContent')) {
      await streamReply(res, { kind: 'text', text: 'Lab session' });
      return;
    }
    if (path.includes(':generateContent')) {
      // Why: routing and next-speaker checks ask for JSON in a schema; answer in that shape.
      const config = record(record(request.body)?.generationConfig);
      const schema = config?.responseJsonSchema ?? config?.responseSchema;
      const text = schema ? JSON.stringify(fillSchema(schema)) : 'Lab session';
      sendJson(res, 200, chunk([{ text }], 'STOP'));
      return;
    }
    sendJson(res, 200, {});
  },
};

/** Starts a Gemini API stand-in on 127.0.0.1 (`GOOGLE_GEMINI_BASE_URL`). */
export function startGeminiServer(picker: ReplyPicker): Promise<ModelServer> {
  return startModelServer(geminiAdapter, picker);
}
