import { describe, expect, it } from 'vitest';
import { WIRE_ERROR_CODES, WireError } from './errors.ts';
import { LINK_ERROR_CODES, LinkError, RemoteError } from './relay-frames/link-errors.ts';
import { InvalidArgumentError, RpcError } from './rpc/errors.ts';

describe('one error shape', () => {
  it('every code carries the package prefix and appears once', () => {
    expect(WIRE_ERROR_CODES.filter((code) => !code.startsWith('ORCA_WIRE_'))).toEqual([]);
    expect(new Set(WIRE_ERROR_CODES).size).toBe(WIRE_ERROR_CODES.length);
    expect(LINK_ERROR_CODES.filter((code) => !(WIRE_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it('new WireError(code, message, { cause, context })', () => {
    const cause = new Error('underneath');
    const error = new WireError('ORCA_WIRE_FRAME_TOO_LARGE', 'too big', { cause, context: { length: 9 } });
    expect({ name: error.name, code: error.code, message: error.message, context: error.context }).toEqual({
      name: 'WireError',
      code: 'ORCA_WIRE_FRAME_TOO_LARGE',
      message: 'too big',
      context: { length: 9 },
    });
    expect(error.cause).toBe(cause);
    expect(Object.isFrozen(error.context)).toBe(true);
    expect(Object.hasOwn(new WireError('ORCA_WIRE_BAD_ARGUMENT', 'x'), 'cause')).toBe(false);
  });

  it('every error class of the package is a WireError with a prefixed code', () => {
    const cause = new Error('underneath');
    const errors = [
      new RpcError('forbidden', 'no', { data: { why: 1 }, cause, context: { method: 'm' } }),
      new InvalidArgumentError('bad', { cause }),
      new LinkError('ORCA_WIRE_TIMEOUT', 'request x timed out', { cause }),
      new RemoteError({ rpcCode: -32000, nodeCode: null, message: 'remote' }),
    ];
    expect(errors.map((e) => [e instanceof WireError, e.name, e.code])).toEqual([
      [true, 'RpcError', 'ORCA_WIRE_RPC_ERROR'],
      [true, 'InvalidArgumentError', 'ORCA_WIRE_BAD_ARGUMENT'],
      [true, 'LinkError', 'ORCA_WIRE_TIMEOUT'],
      [true, 'RemoteError', 'ORCA_WIRE_REMOTE_ERROR'],
    ]);
    const [rpc] = errors as [RpcError];
    expect({ rpcCode: rpc.rpcCode, data: rpc.data, context: rpc.context, cause: rpc.cause }).toEqual({
      rpcCode: 'forbidden',
      data: { why: 1 },
      context: { method: 'm', rpcCode: 'forbidden' },
      cause,
    });
  });
});
