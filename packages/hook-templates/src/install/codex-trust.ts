import { parse, stringify } from 'smol-toml';
import { HookTemplatesError } from '../errors.ts';
import { isJsonObject } from './hooks-edit.ts';

/** One trust entry: the Codex hook key and the hash Codex reported for it. */
export interface CodexTrustEntry {
  key: string;
  hash: string;
}

function normalizeHash(hash: string): string {
  return hash.startsWith('sha256:') ? hash : `sha256:${hash}`;
}

/**
 * Sets `[hooks.state."<key>"] trusted_hash = "sha256:…"` for our managed handlers in Codex's
 * `config.toml` and removes the entries of `drop` (keys our handlers no longer hold); returns the
 * input unchanged when nothing changes (a rewrite loses comments, so it happens only then).
 *
 * @example
 * applyCodexTrust('', [{ key: '/h/.codex/hooks.json:stop:0:0', hash: 'abc' }])
 */
export function applyCodexTrust(
  toml: string,
  entries: readonly CodexTrustEntry[],
  drop: readonly string[] = [],
): string {
  let doc: Record<string, unknown>;
  try {
    doc = toml.trim() === '' ? {} : (parse(toml) as Record<string, unknown>);
  } catch (cause) {
    throw new HookTemplatesError('ORCA_HOOKS_CONFIG_UNPARSEABLE', 'codex config.toml is not valid TOML', { cause });
  }
  const hooks = doc.hooks ?? {};
  if (!isJsonObject(hooks))
    throw new HookTemplatesError('ORCA_HOOKS_CONFIG_SHAPE', 'codex config.toml: hooks is not a table');
  const state = hooks.state ?? {};
  if (!isJsonObject(state))
    throw new HookTemplatesError('ORCA_HOOKS_CONFIG_SHAPE', 'codex config.toml: hooks.state is not a table');
  const same = entries.every((e) => {
    const cur = state[e.key];
    return isJsonObject(cur) && cur.trusted_hash === normalizeHash(e.hash);
  });
  const stale = drop.filter((k) => k in state && !entries.some((e) => e.key === k));
  if (same && stale.length === 0) return toml;
  const nextState: Record<string, unknown> = { ...state };
  for (const k of stale) delete nextState[k];
  for (const e of entries) {
    const cur = nextState[e.key];
    nextState[e.key] = { ...(isJsonObject(cur) ? cur : {}), trusted_hash: normalizeHash(e.hash) };
  }
  return `${stringify({ ...doc, hooks: { ...hooks, state: nextState } })}\n`;
}

/** The trusted hashes currently recorded for `keys` (missing ones absent). */
export function readCodexTrust(toml: string, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    const doc = parse(toml) as Record<string, unknown>;
    const state = isJsonObject(doc.hooks) ? doc.hooks.state : undefined;
    if (!isJsonObject(state)) return out;
    for (const k of keys) {
      const cur = state[k];
      if (isJsonObject(cur) && typeof cur.trusted_hash === 'string') out[k] = cur.trusted_hash;
    }
  } catch {
    return out;
  }
  return out;
}
