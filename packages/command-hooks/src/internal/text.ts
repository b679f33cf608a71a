import { MAX_ECHO_CHARS } from '../limits.ts';

/** Cut `text` to `max` characters, marking the cut. */
export function truncateText(text: string, max: number = MAX_ECHO_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** JSON echo of an outside value for messages (≤ 200 chars). */
export function echoValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return truncateText(text);
}

/** `JSON.stringify` that never throws (cycles, BigInt → `""`). */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
