import { ERROR_ECHO_CHARS } from './limits.ts';

/** Stable codes of {@link AgentStatusError}. */
export const AGENT_STATUS_ERROR_CODES = {
  invalidEvidence: 'ORCA_STATUS_INVALID_EVIDENCE',
  usage: 'ORCA_STATUS_USAGE',
} as const;
/** One error code. */
export type AgentStatusErrorCode = (typeof AGENT_STATUS_ERROR_CODES)[keyof typeof AGENT_STATUS_ERROR_CODES];

/** The package's one error class: a caller broke the contract (agent data never throws). */
export class AgentStatusError extends Error {
  readonly code: AgentStatusErrorCode;
  readonly field: string | undefined;
  constructor(code: AgentStatusErrorCode, message: string, options?: { field?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentStatusError';
    this.code = code;
    this.field = options?.field;
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
    AGENT_STATUS_ERROR_CODES.invalidEvidence,
    `evidence field ${field}: expected ${expected}, got ${echoValue(value)}`,
    { field },
  );
}
