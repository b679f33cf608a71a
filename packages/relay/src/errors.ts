/**
 * Stable codes of {@link RelayError} (docs/errors.md). A code is permanent: never renamed or
 * reused; a new one is appended.
 */
export const RELAY_ERROR_CODES = [
  'ORCA_RELAY_BAD_OPTIONS',
  'ORCA_RELAY_BIND_FAILED',
  'ORCA_RELAY_BAD_VERSION',
  'ORCA_RELAY_DUPLICATE_KIND',
  /** `orca-relay` was given arguments it does not take (exit 2). */
  'ORCA_RELAY_USAGE',
] as const;

/** One of the stable `ORCA_RELAY_*` codes. */
export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[number];

/**
 * The one error class of `@orca/relay`. Messages never contain a token.
 *
 * @example
 * try { await listener.start(); } catch (e) { if (e instanceof RelayError && e.code === 'ORCA_RELAY_BIND_FAILED') … }
 */
export class RelayError extends Error {
  /** Stable string code. */
  readonly code: RelayErrorCode;
  /** Typed context (never secrets). */
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: RelayErrorCode,
    message: string,
    options: { cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RelayError';
    this.code = code;
    this.context = options.context ?? {};
  }
}
