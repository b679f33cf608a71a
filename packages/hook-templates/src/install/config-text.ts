import { applyEdits, modify, type ParseError, parse as parseJsonc } from 'jsonc-parser';
import { HookTemplatesError } from '../errors.ts';
import { isJsonObject, type JsonObject } from './hooks-edit.ts';

/** Parses a config's text: JSON, or JSONC for Devin. `null`/blank ⇒ `{}`. Throws the two config codes. */
export function parseConfig(text: string | null, path: string, jsonc: boolean): JsonObject {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  if (jsonc) {
    const errors: ParseError[] = [];
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0) {
      throw new HookTemplatesError('ORCA_HOOKS_CONFIG_UNPARSEABLE', `${path} is not valid JSONC`, {
        context: { path },
      });
    }
  } else {
    try {
      value = JSON.parse(text);
    } catch (cause) {
      throw new HookTemplatesError('ORCA_HOOKS_CONFIG_UNPARSEABLE', `${path} is not valid JSON`, {
        cause,
        context: { path },
      });
    }
  }
  if (!isJsonObject(value)) {
    throw new HookTemplatesError('ORCA_HOOKS_CONFIG_SHAPE', `${path}: expected a JSON object at the root`, {
      context: { path },
    });
  }
  return value;
}

/** The `hooks`-like member `key` of `root` as an object (absent ⇒ `{}`), else `ORCA_HOOKS_CONFIG_SHAPE`. */
export function objectMember(root: JsonObject, key: string, path: string): JsonObject {
  const v = root[key];
  if (v === undefined) return {};
  if (!isJsonObject(v)) {
    throw new HookTemplatesError('ORCA_HOOKS_CONFIG_SHAPE', `${path}: expected "${key}" to be an object`, {
      context: {
        path,
        key,
      },
    });
  }
  return v;
}

/** Plain JSON as written: 2-space indent, LF, trailing newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Devin's JSONC: rewrites only the changed `hooks.<event>` members (comments elsewhere kept
 * byte-for-byte) via `jsonc-parser` `modify` + `applyEdits`.
 */
export function editJsoncHooks(
  text: string | null,
  oldHooks: JsonObject,
  newHooks: JsonObject,
  hadHooks: boolean,
): string {
  if (text === null || text.trim() === '') return formatJson({ hooks: newHooks });
  const opts = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };
  if (!hadHooks) return applyEdits(text, modify(text, ['hooks'], newHooks, opts));
  let out = text;
  const keys = new Set([...Object.keys(oldHooks), ...Object.keys(newHooks)]);
  for (const key of keys) {
    const before = oldHooks[key];
    const after = newHooks[key];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    out = applyEdits(out, modify(out, ['hooks', key], after, opts));
  }
  return out;
}
