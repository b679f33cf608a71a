import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHandshake, parseHandshake } from './handshake.ts';
import { parseJsonRpcPayload } from './jsonrpc-message.ts';

const enc = new TextEncoder();

describe('parseJsonRpcPayload', () => {
  it('classifies the four message kinds', () => {
    const p = (v: unknown) => parseJsonRpcPayload(enc.encode(JSON.stringify(v)));
    expect(p({ jsonrpc: '2.0', id: 1, method: 'm', params: [1] })).toEqual({
      ok: true,
      value: { kind: 'request', id: 1, method: 'm', params: [1] },
    });
    expect(p({ jsonrpc: '2.0', method: 'n' })).toEqual({
      ok: true,
      value: { kind: 'notification', method: 'n', params: undefined },
    });
    expect(p({ jsonrpc: '2.0', id: 'a', result: null })).toEqual({
      ok: true,
      value: { kind: 'result', id: 'a', result: null },
    });
    expect(p({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toEqual({
      ok: true,
      value: { kind: 'error', id: null, error: { code: -32700, message: 'x' } },
    });
    expect(p({ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } })).toEqual({
      ok: false,
      reason: 'invalid-shape',
    });
    expect(p([1])).toEqual({ ok: false, reason: 'invalid-shape' });
    expect(p({ jsonrpc: 2, method: 'x' })).toEqual({ ok: false, reason: 'bad-jsonrpc-version' });
    expect(parseJsonRpcPayload(Uint8Array.of(0xff))).toEqual({ ok: false, reason: 'invalid-json' });
  });

  it('never throws on random bytes or random JSON (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.jsonValue().map((v) => enc.encode(JSON.stringify(v))),
        ),
        (bytes) => {
          const r = parseJsonRpcPayload(bytes);
          if (!r.ok) expect(['invalid-json', 'bad-jsonrpc-version', 'invalid-shape']).toContain(r.reason);
        },
      ),
    );
  });
});

describe('handshake', () => {
  it('round-trips the three handshake messages and never throws on junk (property)', () => {
    const frame = encodeHandshake();
    expect(Buffer.from(frame.subarray(0, 9)).toString('hex')).toBe('020000000000000000');
    expect(parseHandshake(frame.subarray(13))).toEqual({
      ok: true,
      value: { type: 'orca-relay-handshake', version: '0.1.0' },
    });
    const mismatch = encodeHandshake({ type: 'orca-relay-handshake-mismatch', expected: '0.1.0', got: '9' });
    expect(parseHandshake(mismatch.subarray(13)).ok).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(typeof parseHandshake(bytes).ok).toBe('boolean');
      }),
    );
  });
});
