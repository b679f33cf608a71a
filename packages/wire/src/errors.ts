/** Stable string codes of every error `@orca/wire` throws. */
export const WIRE_ERROR_CODES = [
  'ORCA_WIRE_NOT_NEGOTIATED',
  'ORCA_WIRE_BAD_STREAM_ID',
  'ORCA_WIRE_JSON_LIMIT',
  'ORCA_WIRE_FRAME_TOO_LARGE',
  'ORCA_WIRE_BAD_ARGUMENT',
  'ORCA_WIRE_REMOTE_ERROR',
  'ORCA_WIRE_CONNECTION_LOST',
  'ORCA_WIRE_DISPOSED',
  'ORCA_WIRE_TIMEOUT',
  'ORCA_WIRE_CANCELLED',
  'ORCA_WIRE_RPC_ERROR',
] as const;

/** One of {@link WIRE_ERROR_CODES}. */
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

/**
 * The one error base class of `@orca/wire` (`RpcError`, `InvalidArgumentError`, `LinkError` and
 * `RemoteError` extend it). Encoders throw it only for caller bugs; decoders never throw on wire
 * input (they return typed results instead). `code` is a JS error code, never a protocol code: what
 * crosses a wire (an RPC envelope's `error.code`, a JSON-RPC number) is carried by the subclasses.
 *
 * @example
 * throw new WireError('ORCA_WIRE_FRAME_TOO_LARGE', `text payload is ${n} bytes, the limit is ${max}`, {
 *   context: { length: n },
 * });
 */
export class WireError extends Error {
  /** Stable machine-readable code. */
  readonly code: WireErrorCode;
  /** Typed context (never contains a token). */
  readonly context: Readonly<Record<string, unknown>>;

  constructor(
    code: WireErrorCode,
    message: string,
    options: { cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WireError';
    this.code = code;
    this.context = Object.freeze({ ...(options.context ?? {}) });
  }
}
