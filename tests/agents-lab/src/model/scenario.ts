/**
 * A scenario script: what the model stand-in answers, turn by turn. Vendor-neutral; each vendor's
 * server encodes a {@link Reply} in its own wire format (Anthropic SSE, OpenAI Responses SSE,
 * Gemini `streamGenerateContent` SSE).
 */

/** A tool the scripted model asks the agent to run, in vendor-neutral terms. */
export type ToolCall =
  | { readonly tool: 'shell'; readonly command: string; readonly description?: string }
  | { readonly tool: 'write'; readonly path: string; readonly content: string }
  | { readonly tool: 'edit'; readonly path: string; readonly oldText: string; readonly newText: string }
  | { readonly tool: 'fetch'; readonly url: string; readonly prompt?: string }
  | { readonly tool: 'read'; readonly path: string };

/** One answer of the model to one main-turn request. */
export type Reply =
  /** Stream `text` and end the turn. */
  | { readonly kind: 'text'; readonly text: string }
  /** Stream `text` in small pieces spread over `seconds`, then end the turn. */
  | { readonly kind: 'slow-text'; readonly text: string; readonly seconds: number }
  /** Ask the agent to call a tool (optional text before it). */
  | { readonly kind: 'tool'; readonly call: ToolCall; readonly text?: string }
  /** Fail the request with an HTTP error the vendor's clients know (429, 500, 529 overloaded). */
  | { readonly kind: 'error'; readonly status: 400 | 429 | 500 | 503 | 529; readonly message?: string };

/** A request the stand-in received, kept for assertions. */
export interface RecordedRequest {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  /** Parsed JSON body, or null (no body / not JSON). */
  readonly body: unknown;
  /** Which kind the server took it for. */
  readonly role: 'main' | 'auxiliary' | 'other';
  /** The user's own text messages in the conversation, oldest first (tool results left out). */
  readonly userTurns: readonly string[];
  /** The reply index it consumed, for `main` requests. */
  readonly replyIndex?: number;
}

/**
 * Picks the reply for each main request. The default, {@link scripted}, answers the n-th main
 * request with the n-th reply and then with `fallback`.
 */
export type ReplyPicker = (index: number, request: RecordedRequest) => Reply;

/**
 * The n-th main request gets `replies[n]`; after the list, `fallback` (default: a short text).
 *
 * @example
 * scripted([{ kind: 'tool', call: { tool: 'shell', command: 'ls' } }, { kind: 'text', text: 'done' }])
 */
export function scripted(replies: readonly Reply[], fallback: Reply = { kind: 'text', text: 'Done.' }): ReplyPicker {
  return (index) => replies[index] ?? fallback;
}

/** Splits `text` into pieces of at most `size` characters (stream deltas). */
export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

/**
 * Replies chosen by the prompt being answered: the k-th main request whose newest user turn
 * contains a key gets the k-th reply of that key's list (a tool result keeps the same newest
 * user turn, so a tool call and its follow-up are two entries of one list). Requests matching no
 * key, or past a list's end, get `fallback`.
 *
 * @example
 * byPrompt({ 'run the tests': [{ kind: 'tool', call: { tool: 'shell', command: 'ls' } }, { kind: 'text', text: 'ok' }] })
 */
export function byPrompt(
  table: Readonly<Record<string, readonly Reply[]>>,
  fallback: Reply = { kind: 'text', text: 'Done.' },
): ReplyPicker {
  const used = new Map<string, number>();
  return (_index, request) => {
    const newest = request.userTurns.at(-1) ?? '';
    // Why: the longest key wins, so 'write a file' is not taken for 'write'.
    const key = Object.keys(table)
      .filter((k) => newest.includes(k))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) return fallback;
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    return table[key]?.[n] ?? fallback;
  };
}
