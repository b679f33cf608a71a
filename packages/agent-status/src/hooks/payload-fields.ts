import { OSC_FIELD_CAPS } from '../limits.ts';

/** A plain JSON object, or null. */
export type JsonObject = Record<string, unknown>;

/** `value` as a plain object, else null. */
export function asObject(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

/** First string among `keys` of `payload`. */
export function stringField(payload: JsonObject, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const v = payload[key];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/** Event names compared without case or separators (`PreToolUse` = `preToolUse` = `pre_tool_use`). */
export function eventKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

/** The tool a payload names (`tool_name`, `toolName`, `tool.name`, `tool`), lowercased. */
export function toolNameOf(payload: JsonObject): string | undefined {
  const direct = stringField(payload, 'tool_name', 'toolName');
  if (direct !== undefined) return direct;
  const tool = payload.tool;
  if (typeof tool === 'string') return tool;
  const nested = asObject(tool);
  return nested ? stringField(nested, 'name') : undefined;
}

/** Cap a string to `max` characters. */
export function cap(value: string | undefined, max: number): string | undefined {
  return value === undefined ? undefined : value.slice(0, max);
}

/** Tool input as capped text (strings kept, objects JSON-encoded). */
export function toolInputOf(payload: JsonObject): string | undefined {
  const raw = payload.tool_input ?? payload.toolInput ?? payload.input ?? payload.args;
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return cap(raw, OSC_FIELD_CAPS.toolInput);
  try {
    return cap(JSON.stringify(raw), OSC_FIELD_CAPS.toolInput);
  } catch {
    return undefined;
  }
}
