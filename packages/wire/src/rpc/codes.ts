/**
 * Runtime RPC error codes (`^[a-z][a-z0-9_]*$`). Codes are permanent: never rename or reuse one.
 */
export const RPC_ERROR_CODES = {
  /** Bad JSON, missing/empty id or method (id `'unknown'` when unreadable). */
  bad_request: 'bad_request',
  /** Over `maxRequestBytes`, checked before parsing. */
  request_too_large: 'request_too_large',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  /** More than 16 concurrent long-polls. */
  runtime_busy: 'runtime_busy',
  method_not_found: 'method_not_found',
  /** Wrong mode (unary call of a streaming method or the reverse). */
  method_not_supported: 'method_not_supported',
  invalid_argument: 'invalid_argument',
  runtime_error: 'runtime_error',
  /** A transport or dispatcher bug. */
  internal_error: 'internal_error',
} as const;

/** One of the built-in codes. */
export type RpcErrorCode = keyof typeof RPC_ERROR_CODES;

/** Shape of every RPC error code. */
export const RPC_CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Codes a handler may throw (as its `code`) that reach the client unchanged, by default: the
 * terminal stream's own. An application adds its protocol codes through `passThroughCodes` (the
 * host passes its `REFUSAL_CODES`); wire knows none of them.
 */
export const DEFAULT_PASS_THROUGH_CODES = [
  'terminal_stream_limit_exceeded',
  'binary_terminal_stream_required',
] as const;
