import { ERROR_ECHO_CHARS } from './limits.ts';

/** Stable codes of {@link AgentStatusError}. */
export const AGENT_STATUS_ERROR_CODES = ['ORCA_STATUS_INVALID_EVIDENCE', 'ORCA_STATUS_USAGE'] as const;
/** One error code. */
export type AgentStatusErrorCode = (typeof AGENT_STATUS_ERROR_CODES)[number];

/** Options of {@link AgentStatusError}: the error underneath, and typed data (`field` for evidence). */
export interface AgentStatusErrorOptions {
  cause?: unknown;
  context?: Record<string, unknown>;
}

/**
 * The package's one error class: a caller broke the contract (agent data never throws).
 *
 * @example
 * throw new AgentStatusError('ORCA_STATUS_USAGE', '--now: expected milliseconds', { context: { flag: '--now' } });
 */
export class AgentStatusError extends Error {
  readonly code: AgentStatusErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(code: AgentStatusErrorCode, message: string, options: AgentStatusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentStatusError';
    this.code = code;
    this.context = options.context ?? {};
  }

  /** The evidence field an `ORCA_STATUS_INVALID_EVIDENCE` names (`context.field`). */
  get field(): string | undefined {
    return typeof this.context.field === 'string' ? this.context.field : undefined;
  }
}

/** Echo a value for an error message, truncated. */
export function echoValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > ERROR_ECHO_CHARS ? `${text.slice(0, ERROR_ECHO_CHARS)}…` : text;
}

/** Throw `ORCA_STATUS_INVALID_EVIDENCE` naming `field`. */
export function invalidEvidence(field: string, expected: string, value: unknown): never {
  throw new AgentStatusError(
    'ORCA_STATUS_INVALID_EVIDENCE',
    `evidence field ${field}: expected ${expected}, got ${echoValue(value)}`,
    { context: { field } },
  );
}
