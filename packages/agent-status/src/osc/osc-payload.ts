import { z } from 'zod';
import {
  OSC_FIELD_CAPS,
  OSC_MAX_JSON_DEPTH,
  OSC_MAX_JSON_TOKENS,
  OSC_MAX_SUBAGENTS,
  OSC_SUBAGENT_ID_CHARS,
} from '../limits.ts';

const capped = (max: number) => z.string().max(max);

const subagentSchema = z.object({
  id: z.string().min(1).max(OSC_SUBAGENT_ID_CHARS),
  state: z.enum(['working', 'blocked', 'waiting', 'idle']),
  startedAt: z.number().finite(),
  agentType: capped(OSC_FIELD_CAPS.agentType).optional(),
  model: capped(OSC_FIELD_CAPS.model).optional(),
  description: capped(OSC_FIELD_CAPS.toolInput).optional(),
});

/** zod schema of one OSC 9999 payload (unknown keys stripped). */
export const oscStatusPayloadSchema = z.object({
  state: z.enum(['working', 'blocked', 'waiting', 'done']),
  prompt: capped(OSC_FIELD_CAPS.prompt).optional(),
  agentType: capped(OSC_FIELD_CAPS.agentType).optional(),
  model: capped(OSC_FIELD_CAPS.model).optional(),
  toolName: capped(OSC_FIELD_CAPS.toolName).optional(),
  toolInput: capped(OSC_FIELD_CAPS.toolInput).optional(),
  lastAssistantMessage: capped(OSC_FIELD_CAPS.lastAssistantMessage).optional(),
  interactivePrompt: capped(OSC_FIELD_CAPS.interactivePrompt).optional(),
  interrupted: z.boolean().optional(),
  subagents: z.array(subagentSchema).max(OSC_MAX_SUBAGENTS).optional(),
});

/** One validated OSC 9999 payload. */
export type OscStatusPayload = z.infer<typeof oscStatusPayloadSchema>;

/**
 * Decode the JSON body of one frame; null when it is not JSON, exceeds the depth/token limits or
 * fails the schema. Never throws.
 */
export function decodeOscPayload(body: string): OscStatusPayload | null {
  if (!withinDepth(body)) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  // Why: every key and value takes at least one character, so a short body cannot hold too many tokens.
  const tokensKnownWithin = body.length <= OSC_MAX_JSON_TOKENS;
  if (tokensKnownWithin) {
    const clean = cleanFlatPayload(value);
    if (clean !== undefined) return clean;
  }
  return decodeOscPayloadValue(value, tokensKnownWithin);
}

/**
 * The common frame, decided without copying: a freshly parsed object whose own keys are all known
 * flat fields, each valid, with `state` present and `interrupted` only on `done`. Then the
 * validated payload (see {@link decodeFlatPayload}) has exactly its keys and values, so the parsed
 * object itself is the result. `undefined` = anything else; ask the full decoder.
 */
function cleanFlatPayload(value: unknown): OscStatusPayload | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  let hasState = false;
  let interrupted = false;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) return undefined;
    const v = record[key];
    if (key === 'state') {
      if (!STATES.has(v)) return undefined;
      hasState = true;
    } else if (key === 'interrupted') {
      if (typeof v !== 'boolean') return undefined;
      interrupted = true;
    } else if (Object.hasOwn(FLAT_STRING_CAPS, key)) {
      if (typeof v !== 'string' || v.length > (FLAT_STRING_CAPS[key] ?? 0)) return undefined;
    } else return undefined;
  }
  if (!hasState || (interrupted && record.state !== 'done')) return undefined;
  return record as OscStatusPayload;
}

/** Validate an already-parsed OSC payload value (token limit + schema); null when invalid. */
export function decodeOscPayloadValue(value: unknown, tokensKnownWithin = false): OscStatusPayload | null {
  if (!tokensKnownWithin && countTokens(value) > OSC_MAX_JSON_TOKENS) return null;
  const fast = decodeFlatPayload(value);
  if (fast === null) return null;
  if (fast !== undefined) return dropStrayInterrupted(fast);
  const parsed = oscStatusPayloadSchema.safeParse(value);
  if (!parsed.success) return null;
  return dropStrayInterrupted(parsed.data);
}

// Why: `interrupted` only qualifies a finished turn; on any other state it is noise.
function dropStrayInterrupted(payload: OscStatusPayload): OscStatusPayload {
  if (payload.interrupted !== undefined && payload.state !== 'done') {
    const { interrupted: _dropped, ...rest } = payload;
    return rest;
  }
  return payload;
}

const STATES: ReadonlySet<unknown> = new Set(['working', 'blocked', 'waiting', 'done']);
const FLAT_STRING_CAPS: Readonly<Record<string, number>> = OSC_FIELD_CAPS;

/**
 * Fast path for the common frame — only `state`, capped string fields and `interrupted`: the same
 * verdict as {@link oscStatusPayloadSchema} (a property test holds them equal) at a fraction of the
 * cost. `undefined` = not a flat payload, ask the schema; `null` = invalid.
 */
export function decodeFlatPayload(value: unknown): OscStatusPayload | null | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const v = record[key];
    if (v === undefined && key !== 'state') continue;
    if (key === 'state') {
      if (!STATES.has(v)) return null;
      out.state = v;
    } else if (key === 'interrupted') {
      if (typeof v !== 'boolean') return null;
      out.interrupted = v;
    } else if (Object.hasOwn(FLAT_STRING_CAPS, key)) {
      if (typeof v !== 'string' || v.length > (FLAT_STRING_CAPS[key] ?? 0)) return null;
      out[key] = v;
    } else if (key === 'subagents') {
      return undefined;
    }
    // other keys: stripped, as the schema does
  }
  if (out.state === undefined) return null;
  return out as OscStatusPayload;
}

// Why: a guard before JSON.parse so a hostile 64 KiB of `[` costs one linear pass, not a deep parse.
function withinDepth(body: string): boolean {
  // Why: depth never exceeds the number of openers, so a body with few `[`/`{` needs no scan.
  if (
    countUpTo(body, '{', OSC_MAX_JSON_DEPTH + 1) + countUpTo(body, '[', OSC_MAX_JSON_DEPTH + 1) <=
    OSC_MAX_JSON_DEPTH
  ) {
    return true;
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > OSC_MAX_JSON_DEPTH) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

function countUpTo(text: string, needle: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && n < max; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

function countTokens(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    count++;
    if (count > OSC_MAX_JSON_TOKENS) return count;
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [, inner] of Object.entries(v)) {
        count++;
        stack.push(inner);
      }
    }
  }
  return count;
}
