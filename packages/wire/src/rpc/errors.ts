import { WireError } from '../errors.ts';

/** Thrown by a handler for a bad argument the schema could not express; maps to `invalid_argument`. */
export class InvalidArgumentError extends WireError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('ORCA_WIRE_BAD_ARGUMENT', message, options);
    this.name = 'InvalidArgumentError';
  }
}

/** Thrown by a handler to fail with an explicit RPC code (kept when it matches the code pattern). */
export class RpcError extends Error {
  readonly rpcCode: string;
  readonly data: unknown;
  constructor(rpcCode: string, message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RpcError';
    this.rpcCode = rpcCode;
    this.data = options.data;
  }
}
