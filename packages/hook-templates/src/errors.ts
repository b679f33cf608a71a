/** Stable error codes of `@orca/hook-templates` (spec §6). */
export const HOOK_TEMPLATES_ERROR_CODES = [
  'ORCA_HOOKS_PLAN_INVALID',
  'ORCA_HOOKS_UNKNOWN_AGENT',
  'ORCA_HOOKS_UNSUPPORTED_TARGET',
  'ORCA_HOOKS_UNSAFE_PATH',
  'ORCA_HOOKS_CONFIG_UNPARSEABLE',
  'ORCA_HOOKS_CONFIG_SHAPE',
  'ORCA_HOOKS_USAGE',
  'ORCA_HOOKS_CONFIG_BUSY',
  'ORCA_HOOKS_IO',
] as const;

/** One stable error code. */
export type HookTemplatesErrorCode = (typeof HOOK_TEMPLATES_ERROR_CODES)[number];

/** Longest echo of an outside value inside an error message, in characters. */
export const ERROR_ECHO_MAX_CHARS = 200;

/** Truncates an outside value for an error message. */
export function echoValue(value: string): string {
  return value.length > ERROR_ECHO_MAX_CHARS ? `${value.slice(0, ERROR_ECHO_MAX_CHARS)}…` : value;
}

/** Options of {@link HookTemplatesError}: the error underneath, and typed data for programs. */
export interface HookTemplatesErrorOptions {
  cause?: unknown;
  context?: Record<string, unknown>;
}

/**
 * The one error class of this package. `code` is stable; `context` is typed per use and never
 * holds a token.
 *
 * @example
 * try { emitPosix(plan) } catch (e) { if (e instanceof HookTemplatesError && e.code === 'ORCA_HOOKS_PLAN_INVALID') … }
 */
export class HookTemplatesError extends Error {
  readonly code: HookTemplatesErrorCode;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(code: HookTemplatesErrorCode, message: string, options: HookTemplatesErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HookTemplatesError';
    this.code = code;
    this.context = options.context ?? {};
  }
}
