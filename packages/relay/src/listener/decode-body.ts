import { parse as parseContentType } from 'content-type';
import { MAX_PAYLOAD_JSON_DEPTH } from '../constants.ts';
import { parseLimitedJson, stripBom } from './json-limits.ts';
import type { BodyDropReason } from './types.ts';

/** The request facts body decoding needs. */
export interface HookBodyInput {
  contentType?: string | undefined;
  /** `x-orca-agent-hook-meta` (raw-json-v1 transport). */
  meta?: string | undefined;
  /** `x-orca-agent-hook-meta-encoding`. */
  metaEncoding?: string | undefined;
  body: Uint8Array;
}

/** A decoded (not yet validated) hook body, or why it could not be decoded. */
export type DecodedHookBody = { ok: true; body: Record<string, unknown> } | { ok: false; reason: BodyDropReason };

const META_FIELDS = ['paneKey', 'tabId', 'launchToken', 'worktreeId', 'env', 'version'] as const;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

// Why: a hook script whose metadata is all in the endpoint charset sends it as is, comma-separated:
// base64 would cost it two processes (base64, tr) on the agent's clock.
const PLAIN_META_RE = /^[A-Za-z0-9._:/,-]*$/;

function decodeMeta(meta: string, encoding: string | undefined): Record<string, unknown> | undefined {
  const kind = encoding?.trim().toLowerCase();
  const m = meta.trim();
  let parts: string[];
  if (kind === 'base64') {
    if (m.length % 4 !== 0 || !BASE64_RE.test(m)) return undefined;
    parts = Buffer.from(m, 'base64').toString('utf8').split('\u001f');
  } else if (kind === 'plain') {
    if (!PLAIN_META_RE.test(m)) return undefined;
    parts = m.split(',');
  } else {
    return undefined;
  }
  if (parts.length < META_FIELDS.length) return undefined;
  const out: Record<string, unknown> = {};
  META_FIELDS.forEach((k, i) => {
    out[k] = parts[i];
  });
  return out;
}

/** How a hook body is parsed: by its media type, never by sniffing. */
export type HookBodyKind = 'json' | 'form';

/**
 * The body kind of a `Content-Type` header: `application/json` → JSON (envelope, or payload with
 * the raw-json-v1 meta header), `application/x-www-form-urlencoded` → form; parameters such as
 * `charset` are allowed. Anything else, or no header, → `undefined` (dropped as `content-type`).
 *
 * @example
 * hookBodyKind('application/json; charset=utf-8') // 'json'
 * hookBodyKind('text/plain') // undefined
 */
export function hookBodyKind(contentType: string | undefined): HookBodyKind | undefined {
  if (contentType === undefined) return undefined;
  let type: string;
  try {
    type = parseContentType(contentType).type;
  } catch {
    return undefined;
  }
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return undefined;
}

/**
 * Decode a hook POST body in one of its three forms: form-urlencoded, `raw-json-v1` (JSON
 * payload + base64 meta header) or the JSON envelope; any other media type is `content-type`.
 * Never throws.
 *
 * @example
 * decodeHookBody({ contentType: 'application/json', body: Buffer.from('{"paneKey":"…","payload":{}}') })
 */
export function decodeHookBody(input: HookBodyInput): DecodedHookBody {
  const kind = hookBodyKind(input.contentType);
  if (kind === undefined) return { ok: false, reason: 'content-type' };
  const text = stripBom(Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength).toString('utf8'));
  if (kind === 'form') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      if (!Object.hasOwn(out, k)) out[k] = v;
    }
    return { ok: true, body: out };
  }
  if (input.meta !== undefined) {
    const meta = decodeMeta(input.meta, input.metaEncoding);
    if (meta === undefined) return { ok: false, reason: 'meta' };
    const parsed =
      text.trim() === '' ? { ok: true as const, value: {} } : parseLimitedJson(text, MAX_PAYLOAD_JSON_DEPTH);
    if (!parsed.ok) return parsed;
    return { ok: true, body: { ...meta, payload: parsed.value } };
  }
  if (text.trim() === '') return { ok: true, body: {} };
  // Why: depth is counted on the payload, so the envelope's own level is free (+1).
  const parsed = parseLimitedJson(text, MAX_PAYLOAD_JSON_DEPTH + 1);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, reason: 'payload' };
  return { ok: true, body: v as Record<string, unknown> };
}
