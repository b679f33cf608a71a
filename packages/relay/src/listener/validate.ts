import { MAX_METADATA_CHARS, MAX_PANE_KEY_CHARS, MAX_PAYLOAD_JSON_DEPTH } from '../constants.ts';
import { parseLimitedJson } from './json-limits.ts';
import type { HookSource } from './sources.ts';
import type { BodyDropReason, HookEvent } from './types.ts';

const TAB_RE = /^[A-Za-z0-9._-]{1,163}$/;
const LEAF_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Metadata keys validated as optional bounded strings. */
export const METADATA_KEYS = [
  'tabId',
  'worktreeId',
  'launchToken',
  'env',
  'version',
  'hookEventName',
  'grokHome',
] as const;

type MetadataKey = (typeof METADATA_KEYS)[number];

/**
 * Whether `value`, exactly as given (nothing trimmed), is a paneKey `<tab>:<uuid v1-5 lowercase>` of ≤ 200 chars.
 *
 * @example
 * isPaneKey('tab-1:123e4567-e89b-12d3-a456-426614174000') // true
 */
export function isPaneKey(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_PANE_KEY_CHARS) return false;
  const colon = value.indexOf(':');
  if (colon < 0) return false;
  return TAB_RE.test(value.slice(0, colon)) && LEAF_RE.test(value.slice(colon + 1));
}

/** Result of {@link validateHookBody}. */
export type ValidationResult =
  | { ok: true; event: Omit<HookEvent, 'source' | 'receivedAt'> }
  | { ok: false; reason: BodyDropReason };

function metadataString(value: unknown): { ok: true; value?: string } | { ok: false } {
  if (value === undefined || value === null) return { ok: true };
  if (typeof value !== 'string') return { ok: false };
  const t = value.trim();
  if (t === '') return { ok: true };
  if (t.length > MAX_METADATA_CHARS) return { ok: false };
  return { ok: true, value: t };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function payloadHookEventName(payload: Record<string, unknown>): string | undefined {
  for (const k of ['hook_event_name', 'hookEventName', 'hook_type', 'hookType']) {
    const v = payload[k];
    if (typeof v === 'string' && v.trim() !== '') {
      const t = v.trim();
      return t.length > MAX_METADATA_CHARS ? undefined : t;
    }
  }
  return undefined;
}

/**
 * Validate a decoded hook body (the pure rule shared by the listener and the host trust
 * boundary). Reads only known keys; never throws; never mutates `body`.
 *
 * @example
 * validateHookBody({ paneKey: 't:123e4567-e89b-12d3-a456-426614174000', payload: {} })
 */
export function validateHookBody(body: unknown): ValidationResult {
  if (!isPlainObject(body)) return { ok: false, reason: 'payload' };
  // Why: the key is matched as sent, never trimmed: a padded key is not the pane's key (issue 16).
  const paneKey = body.paneKey;
  if (!isPaneKey(paneKey)) return { ok: false, reason: 'pane-key' };
  const meta: Partial<Record<MetadataKey, string>> = {};
  for (const key of METADATA_KEYS) {
    const r = metadataString(body[key]);
    if (!r.ok) return { ok: false, reason: 'field' };
    if (r.value !== undefined) meta[key] = r.value;
  }
  if (meta.tabId !== undefined && meta.tabId !== paneKey.slice(0, paneKey.indexOf(':'))) {
    return { ok: false, reason: 'tab-mismatch' };
  }
  let payload: unknown = body.payload;
  if (typeof payload === 'string') {
    const parsed = parseLimitedJson(payload, MAX_PAYLOAD_JSON_DEPTH);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    payload = parsed.value;
  }
  if (!isPlainObject(payload)) return { ok: false, reason: 'payload' };
  const hookEventName = meta.hookEventName ?? payloadHookEventName(payload);
  const event: Omit<HookEvent, 'source' | 'receivedAt'> = { paneKey, payload };
  for (const key of METADATA_KEYS) {
    const v = key === 'hookEventName' ? hookEventName : meta[key];
    if (v !== undefined) event[key] = v;
  }
  return { ok: true, event };
}

/** Build a full event from a validation result. */
export function toHookEvent(
  source: HookSource,
  valid: Omit<HookEvent, 'source' | 'receivedAt'>,
  receivedAt: number,
): HookEvent {
  return { source, ...valid, receivedAt };
}
