/** Stable error codes of this package (prefix `ORCA_CMDHOOKS_`). */
export const COMMAND_HOOKS_ERROR_CODES = [
  'ORCA_CMDHOOKS_CONFIG_INVALID',
  'ORCA_CMDHOOKS_CONFIG_UNREADABLE',
  'ORCA_CMDHOOKS_PAYLOAD_INVALID',
  'ORCA_CMDHOOKS_USAGE',
] as const;

/** One of {@link COMMAND_HOOKS_ERROR_CODES}. */
export type CommandHooksErrorCode = (typeof COMMAND_HOOKS_ERROR_CODES)[number];

/**
 * The one error class of `@orca/command-hooks`. Only callers' own mistakes throw (an invalid
 * payload handed to the CLI, bad usage); misbehaving hooks and config files never do.
 */
export class CommandHooksError extends Error {
  /** Stable string code. */
  readonly code: CommandHooksErrorCode;
  /** Typed context (file, JSON pointer, …). */
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: CommandHooksErrorCode,
    message: string,
    options: { cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CommandHooksError';
    this.code = code;
    this.context = options.context ?? {};
  }
}
