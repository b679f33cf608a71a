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
  'ORCA_HOST_AUTH',
  'ORCA_HOST_LISTEN',
] as const;

/**
 * Refusal codes the host returns to clients (wire-visible, passed through the RPC dispatcher,
 * printed by the CLI with exit code 1). Permanent strings.
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
] as const;

/** One of {@link REFUSAL_CODES}. */
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** One of {@link HOST_ERROR_CODES} or {@link REFUSAL_CODES}. */
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number] | RefusalCode;

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

/** A refused request: `code` is a {@link RefusalCode} that crosses the wire unchanged. */
export function refusal(code: RefusalCode, message: string, context: Record<string, unknown> = {}): HostError {
  return new HostError(code, message, context);
}

/** True when `error` is a host refusal (as opposed to a failure). */
export function isRefusal(error: unknown): error is HostError & { code: RefusalCode } {
  return error instanceof HostError && (REFUSAL_CODES as readonly string[]).includes(error.code);
}
