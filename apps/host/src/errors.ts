/** Stable codes of every error the host raises itself (internal failures and usage errors). */
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
  'ORCA_HOST_AUTH',
  'ORCA_HOST_LISTEN',
  'ORCA_HOST_WEB',
  'ORCA_HOST_NOTIFY_CONFIG',
  'ORCA_HOST_KEEPER',
] as const;

/** One of {@link HOST_ERROR_CODES}. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];

/**
 * Refusal codes the host returns to clients (wire-visible, passed through the RPC dispatcher,
 * printed by the CLI with exit code 1). Permanent strings, unprefixed because they are protocol.
 */
export const REFUSAL_CODES = [
  'agent_prompt_blocked',
  'terminal_guard_permission',
  'terminal_guard_no_agent',
  'terminal_guard_not_writable',
  'terminal_handle_stale',
  'hook_blocked',
  'timeout',
  'guest_unavailable',
  'agent_not_ready',
  'prompt_not_submitted',
  'terminal_input_locked',
  'prompt_empty',
  'prompt_too_large',
  'queue_full',
  'queue_item_unknown',
  'queue_item_not_queued',
  'delivery_interrupted',
] as const;

/** One of {@link REFUSAL_CODES}. */
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Options every error of the host takes: what caused it, and typed context (never a token). */
export interface HostErrorOptions {
  readonly cause?: unknown;
  readonly context?: Record<string, unknown>;
}

/**
 * The host's own failures and usage errors. `code` is stable; the message says what failed, why
 * and what to do, and never contains a token. Its code never crosses the wire (the RPC dispatcher
 * answers `runtime_error` with the message).
 *
 * @example
 * throw new HostError('ORCA_HOST_DATA_DIR', `cannot create ${dir}: …; pass --data-dir`, { cause, context: { dir } });
 */
export class HostError extends Error {
  readonly code: HostErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(code: HostErrorCode, message: string, options: HostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostError';
    this.code = code;
    this.context = options.context ?? {};
  }
}

/**
 * A refused request: the client asked for something the host will not do now (a guard held, the
 * handle is gone, a timeout). Its `code` crosses the wire unchanged.
 */
export class HostRefusal extends Error {
  readonly code: RefusalCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(code: RefusalCode, message: string, options: HostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HostRefusal';
    this.code = code;
    this.context = options.context ?? {};
  }
}

/** Shorthand for `new HostRefusal(code, message, { context })`. */
export function refusal(code: RefusalCode, message: string, context: Record<string, unknown> = {}): HostRefusal {
  return new HostRefusal(code, message, { context });
}

/** True for a {@link RefusalCode} string. */
export function isRefusalCode(code: unknown): code is RefusalCode {
  return typeof code === 'string' && (REFUSAL_CODES as readonly string[]).includes(code);
}

/** True when `error` is a refusal: raised here, or received from a host over RPC with a refusal code. */
export function isRefusal(error: unknown): error is Error & { code: RefusalCode } {
  return error instanceof HostRefusal || (error instanceof Error && isRefusalCode((error as { code?: unknown }).code));
}

/** A command line the CLI cannot run (exit code 2). */
export class UsageError extends HostError {
  constructor(message: string) {
    super('ORCA_HOST_USAGE', message);
  }
}
