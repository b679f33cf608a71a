import { describe, expect, it } from 'vitest';
import { RELAY_ERROR_CODES, RelayError } from './errors.ts';
import { relayUsageError } from './guest/process-main.ts';

describe('RelayError (docs/errors.md shape)', () => {
  it('codes are a permanent, unique, ORCA_RELAY_-prefixed list', () => {
    expect(RELAY_ERROR_CODES).toEqual([
      'ORCA_RELAY_BAD_OPTIONS',
      'ORCA_RELAY_BIND_FAILED',
      'ORCA_RELAY_BAD_VERSION',
      'ORCA_RELAY_DUPLICATE_KIND',
      'ORCA_RELAY_USAGE',
    ]);
  });

  it('new RelayError(code, message, { cause, context })', () => {
    const cause = new Error('EADDRINUSE');
    const e = new RelayError('ORCA_RELAY_BIND_FAILED', 'port taken', { cause, context: { port: 1 } });
    expect(e).toBeInstanceOf(Error);
    expect({ name: e.name, code: e.code, message: e.message, context: e.context, cause: e.cause }).toEqual({
      name: 'RelayError',
      code: 'ORCA_RELAY_BIND_FAILED',
      message: 'port taken',
      context: { port: 1 },
      cause,
    });
    expect(new RelayError('ORCA_RELAY_BAD_OPTIONS', 'x').context).toEqual({});
  });

  it("the CLI's usage error is a RelayError with ORCA_RELAY_USAGE, quoting the argument escaped and cut short", () => {
    const e = relayUsageError(['--x\u001b', 'more']);
    expect(e).toBeInstanceOf(RelayError);
    expect({ code: e.code, context: e.context }).toEqual({ code: 'ORCA_RELAY_USAGE', context: { argc: 2 } });
    expect(e.message).toBe(
      'unexpected argument "--x\\u001b"; usage: orca-relay (the guest relay on stdio, inputs from env) | orca-relay --version',
    );
    expect(relayUsageError(['a'.repeat(500)]).message.length).toBeLessThan(320);
  });
});
