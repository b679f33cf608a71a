import { WireError } from '../errors.ts';

/** Options of the RPC errors: the error underneath and typed context (never a token). */
export interface RpcErrorOptions {
  cause?: unknown;
  context?: Record<string, unknown>;
}

/** Thrown by a handler for a bad argument the schema could not express; maps to `invalid_argument`. */
export class InvalidArgumentError extends WireError {
  constructor(message: string, options: RpcErrorOptions = {}) {
    super('ORCA_WIRE_BAD_ARGUMENT', message, options);
    this.name = 'InvalidArgumentError';
  }
}

/**
 * Thrown by a handler to fail with an explicit RPC code (kept when it matches the code pattern).
 * Its JS `code` is `ORCA_WIRE_RPC_ERROR`; `rpcCode` is the protocol code the client receives in
 * `error.code`, and `data` its `error.data`.
 *
 * @example
 * throw new RpcError('forbidden', 'this token may not write', { data: { scope: 'read' } });
 */
export class RpcError extends WireError {
  readonly rpcCode: string;
  readonly data: unknown;
  constructor(rpcCode: string, message: string, options: RpcErrorOptions & { data?: unknown } = {}) {
    super('ORCA_WIRE_RPC_ERROR', message, {
      cause: options.cause,
      context: { ...(options.context ?? {}), rpcCode },
    });
    this.name = 'RpcError';
    this.rpcCode = rpcCode;
    this.data = options.data;
  }
}
