import type { z } from 'zod';
import { echoValue } from './text.ts';

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** JSON pointer escaping of one segment. */
export function pointerSegment(key: PropertyKey): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** zod's message reduced to "expected …" (its own "received …" is replaced by our echo). */
export function expectationOf(message: string): string {
  const text = message.replace(/^Invalid input:\s*/i, '').replace(/,\s*received .*$/i, '');
  return text.toLowerCase().startsWith('expected') ? text : `expected ${text}`;
}

/** One zod issue as `{pointer, message}`: `"<pointer>: expected …, got <echo>"`. */
export interface FormattedIssue {
  pointer: string;
  path: PropertyKey[];
  message: string;
}

/**
 * Format zod issues with JSON pointers rooted at `basePointer`; each message says what was
 * expected and echoes (≤ 200 chars) what arrived.
 */
export function formatZodIssues(error: z.ZodError, root: unknown, basePointer: string): FormattedIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => p as PropertyKey);
    const pointer = basePointer + path.map((p) => `/${pointerSegment(p)}`).join('');
    if (issue.code === 'unrecognized_keys') {
      return { pointer, path, message: `${pointer || '/'}: unknown key(s) ${issue.keys.join(', ')}` };
    }
    const expected = expectationOf(issue.message);
    return { pointer, path, message: `${pointer || '/'}: ${expected}, got ${echoValue(valueAt(root, path))}` };
  });
}
