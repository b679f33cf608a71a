/** Stable codes of every error the host raises itself. */
export const HOST_ERROR_CODES = [
  'ORCA_HOST_ALREADY_RUNNING',
  'ORCA_HOST_NOT_RUNNING',
  'ORCA_HOST_DATA_DIR',
  'ORCA_HOST_STORE',
  'ORCA_HOST_PANE_SPAWN',
  'ORCA_HOST_USAGE',
  'ORCA_HOST_UNSUPPORTED',
  'ORCA_HOST_GUEST',
  'ORCA_HOST_HOOKS',
  'ORCA_HOST_DEMO',
] as const;

/** One of {@link HOST_ERROR_CODES}. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

/**
 * The one error base class of `@orca/host`. `code` is stable; the message says what failed, why
 * and what to do, and never contains a token.
 */
export class HostError extends Error {
  readonly code: HostErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(code: HostErrorCode, message: string, context: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HostError';
    this.code = code;
    this.context = context;
  }
}

/** Truncates an echoed outside value to 200 chars for messages. */
export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
