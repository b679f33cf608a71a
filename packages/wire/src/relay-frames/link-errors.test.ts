import { describe, expect, it } from 'vitest';
import {
  errnoOf,
  fromJsonRpcError,
  JSONRPC_ERROR_CODES,
  LINK_ERROR_CODES,
  LinkError,
  NODE_CODE_TABLE,
  RemoteError,
  toJsonRpcError,
} from './link-errors.ts';

describe('errnoOf', () => {
  const remote = (rpcCode: number, nodeCode: string | null | undefined, message: string) =>
    new RemoteError({ rpcCode, nodeCode, message });

  it.each([
    // nodeCode string wins over message and table
    [-33002, 'ENOENT', 'EACCES: lies', 'ENOENT'],
    [-32000, 'EBUSY', 'whatever', 'EBUSY'],
    // null: table only, the message is never consulted (no spoofing)
    [-33003, null, 'EACCES: spoofed', 'ENOENT'],
    [-33002, null, 'ENOENT: spoofed', 'EACCES'],
    [-33005, null, '', 'ENOSPC'],
    [-32000, null, 'ENOENT: spoofed', undefined],
    // absent (legacy peer): leading E-code in the message, else the table
    [-32000, undefined, 'ENOENT: no such file or directory', 'ENOENT'],
    [-33003, undefined, 'EACCES: permission denied', 'EACCES'],
    [-33003, undefined, 'no such file', 'ENOENT'],
    [-32000, undefined, 'something ENOENT: inside', undefined],
  ])('rpc %i, nodeCode %s, message %j → %s', (rpcCode, nodeCode, message, expected) => {
    expect(errnoOf(remote(rpcCode, nodeCode, message))).toBe(expected);
  });

  it('reads a local Node error code and ignores non-errno codes', () => {
    expect(errnoOf(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errnoOf(Object.assign(new Error('x'), { code: 'ERR_SOMETHING' }))).toBeUndefined();
    expect(errnoOf('ENOENT')).toBeUndefined();
  });
});

describe('toJsonRpcError / fromJsonRpcError', () => {
  it('round-trips nodeCode string, null and legacy-absent', () => {
    const sent = toJsonRpcError(Object.assign(new Error('ENOENT: x'), { code: 'ENOENT' }));
    expect(sent).toEqual({ code: -33003, message: 'ENOENT: x', data: { nodeCode: 'ENOENT' } });
    expect(fromJsonRpcError(sent).nodeCode).toBe('ENOENT');
    expect(fromJsonRpcError(toJsonRpcError(new Error('plain'))).nodeCode).toBeNull();
    expect(fromJsonRpcError({ code: -32000, message: 'legacy' }).nodeCode).toBeUndefined();
    expect(fromJsonRpcError({ code: -32000, message: 'legacy', data: { other: 1 } }).nodeCode).toBeUndefined();
  });

  it('a rethrown link error crosses with its bare legacy code, whatever its JS code', () => {
    expect(LINK_ERROR_CODES.map((code) => toJsonRpcError(new LinkError(code, 'lost')))).toEqual([
      { code: -32000, message: 'lost', data: { nodeCode: 'CONNECTION_LOST' } },
      { code: -32000, message: 'lost', data: { nodeCode: 'DISPOSED' } },
      { code: -32000, message: 'lost', data: { nodeCode: 'TIMEOUT' } },
      { code: -32000, message: 'lost', data: { nodeCode: 'CANCELLED' } },
    ]);
  });

  it('pins the error-number tables (append only)', () => {
    expect(JSONRPC_ERROR_CODES).toMatchInlineSnapshot(`
      {
        "CommandNotFound": -33001,
        "DiskFull": -33005,
        "Internal": -32603,
        "InvalidParams": -32602,
        "InvalidRequest": -32600,
        "ListingCapacity": -33008,
        "MethodNotFound": -32601,
        "Parse": -32700,
        "PathNotFound": -33003,
        "PermissionDenied": -33002,
        "PtyAllocationFailed": -33004,
        "ServerError": -32000,
        "StreamProtocolError": -33007,
        "TooManyStreams": -33006,
      }
    `);
    expect(NODE_CODE_TABLE).toMatchInlineSnapshot(`
      {
        "EACCES": -33002,
        "EDQUOT": -33005,
        "ENOENT": -33003,
        "ENOSPC": -33005,
        "ENOTDIR": -33003,
        "EPERM": -33002,
      }
    `);
  });
});
