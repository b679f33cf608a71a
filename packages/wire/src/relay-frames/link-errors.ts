import { WireError, type WireErrorCode } from '../errors.ts';

/** JSON-RPC error numbers used on the relay link. Numbers are permanent. */
export const JSONRPC_ERROR_CODES = {
  Parse: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  /** Default for an error with neither an integer code nor a mapped Node code. */
  ServerError: -32000,
  CommandNotFound: -33001,
  PermissionDenied: -33002,
  PathNotFound: -33003,
  PtyAllocationFailed: -33004,
  DiskFull: -33005,
  TooManyStreams: -33006,
  StreamProtocolError: -33007,
  ListingCapacity: -33008,
} as const;

/** Node string codes → JSON-RPC number. The first code listed per number is its canonical one. */
export const NODE_CODE_TABLE = {
  EACCES: JSONRPC_ERROR_CODES.PermissionDenied,
  EPERM: JSONRPC_ERROR_CODES.PermissionDenied,
  ENOENT: JSONRPC_ERROR_CODES.PathNotFound,
  ENOTDIR: JSONRPC_ERROR_CODES.PathNotFound,
  ENOSPC: JSONRPC_ERROR_CODES.DiskFull,
  EDQUOT: JSONRPC_ERROR_CODES.DiskFull,
} as const;

/** The canonical Node code for a JSON-RPC number, when the table maps one. */
export function canonicalNodeCode(rpcCode: number): string | undefined {
  for (const [nodeCode, number] of Object.entries(NODE_CODE_TABLE)) {
    if (number === rpcCode) return nodeCode;
  }
  return undefined;
}

/** Why a relay link failed a call (a subset of `WIRE_ERROR_CODES`). */
export const LINK_ERROR_CODES = [
  'ORCA_WIRE_CONNECTION_LOST',
  'ORCA_WIRE_DISPOSED',
  'ORCA_WIRE_TIMEOUT',
  'ORCA_WIRE_CANCELLED',
] as const satisfies readonly WireErrorCode[];

/** One of {@link LINK_ERROR_CODES}. */
export type LinkErrorCode = (typeof LINK_ERROR_CODES)[number];

/**
 * The bare code each link error had before the `ORCA_WIRE_` prefix. Only {@link toJsonRpcError}
 * uses it: a handler that rethrows a link error sends this as `nodeCode`, as it always did.
 */
const LEGACY_LINK_NODE_CODES: Readonly<Record<LinkErrorCode, string>> = {
  ORCA_WIRE_CONNECTION_LOST: 'CONNECTION_LOST',
  ORCA_WIRE_DISPOSED: 'DISPOSED',
  ORCA_WIRE_TIMEOUT: 'TIMEOUT',
  ORCA_WIRE_CANCELLED: 'CANCELLED',
};

/**
 * A call that failed because of the link, not the remote handler.
 *
 * @example
 * try { await channel.request('guestfs.stat', { path }); } catch (e) { if (e instanceof LinkError && e.code === 'ORCA_WIRE_TIMEOUT') … }
 */
export class LinkError extends WireError {
  declare readonly code: LinkErrorCode;
  constructor(
    code: LinkErrorCode,
    message: string,
    options: { cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super(code, message, options);
    this.name = 'LinkError';
  }
}

/**
 * A remote handler's error. `nodeCode` is the sender's string (`'ENOENT'`), `null` when the sender
 * said it had none, and `undefined` when the sender predates the field (legacy peer).
 */
export class RemoteError extends WireError {
  readonly rpcCode: number;
  readonly nodeCode: string | null | undefined;
  readonly data: unknown;
  constructor(init: { rpcCode: number; nodeCode: string | null | undefined; message: string; data?: unknown }) {
    super('ORCA_WIRE_REMOTE_ERROR', init.message, { context: { rpcCode: init.rpcCode } });
    this.name = 'RemoteError';
    this.rpcCode = init.rpcCode;
    this.nodeCode = init.nodeCode;
    this.data = init.data;
  }
}

const LEADING_ERRNO = /^(E[A-Z0-9]+):/;

/**
 * The Node error code of an error that may have crossed the link. `nodeCode` string → it; `null` →
 * the table's canonical code for `rpcCode` (the message is never consulted: it cannot be spoofed);
 * absent (legacy peer) → a leading `E[A-Z0-9]+:` in the message, else the table. A local error with a
 * string `code` returns that code.
 *
 * @example
 * try { await channel.request('fs.stat', { path }); } catch (e) { if (errnoOf(e) === 'ENOENT') … }
 */
export function errnoOf(err: unknown): string | undefined {
  if (err instanceof RemoteError) {
    if (typeof err.nodeCode === 'string') return err.nodeCode;
    if (err.nodeCode === null) return canonicalNodeCode(err.rpcCode);
    const match = LEADING_ERRNO.exec(err.message);
    return match?.[1] ?? canonicalNodeCode(err.rpcCode);
  }
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') {
    return /^E[A-Z0-9]+$/.test(err.code) ? err.code : undefined;
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The JSON-RPC `error` object a responder sends for a thrown value. */
export function toJsonRpcError(err: unknown): { code: number; message: string; data?: unknown } {
  const record = typeof err === 'object' && err !== null ? (err as Record<string, unknown>) : {};
  const rawCode = record.code;
  // Why: the prefix is a JS rename; peers of other versions still receive the bare link code.
  const nodeCode =
    err instanceof LinkError ? LEGACY_LINK_NODE_CODES[err.code] : typeof rawCode === 'string' ? rawCode : null;
  let code: number = JSONRPC_ERROR_CODES.ServerError;
  if (typeof rawCode === 'number' && Number.isInteger(rawCode)) code = rawCode;
  else if (nodeCode !== null && Object.hasOwn(NODE_CODE_TABLE, nodeCode)) {
    code = NODE_CODE_TABLE[nodeCode as keyof typeof NODE_CODE_TABLE];
  }
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : 'remote handler failed';
  const data = record.data;
  if (data !== undefined && !isPlainObject(data)) return { code, message, data };
  return { code, message, data: { ...(data ?? {}), nodeCode } };
}

/** Rebuilds a {@link RemoteError} from a received JSON-RPC `error` object. */
export function fromJsonRpcError(error: { code: number; message: string; data?: unknown }): RemoteError {
  let nodeCode: string | null | undefined;
  if (isPlainObject(error.data) && Object.hasOwn(error.data, 'nodeCode')) {
    const raw = error.data.nodeCode;
    nodeCode = typeof raw === 'string' ? raw : raw === null ? null : undefined;
  }
  return new RemoteError({ rpcCode: error.code, nodeCode, message: error.message, data: error.data });
}
