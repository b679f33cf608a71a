import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fastParseRequest,
  fastParseResponse,
  parseRequest,
  parseRequestWithZod,
  parseResponse,
  parseResponseWithZod,
} from './envelope.ts';

/** Values the fields may take, valid and not: the mutations the fast paths must get right. */
const fieldArb = fc.oneof(
  fc.string(),
  fc.constant(''),
  fc.constantFrom(true, false, null, undefined, 0, 1, Number.NaN),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  fc.array(fc.jsonValue(), { maxLength: 2 }),
  fc.anything({ maxDepth: 1 }),
);

const metaArb = fc.oneof(
  fc.record({ runtimeId: fc.oneof(fc.string(), fc.constant(null)) }),
  fc.record({ runtimeId: fieldArb, extra: fieldArb }, { requiredKeys: [] }),
  fieldArb,
);

/** A record whose keys may each be absent, `undefined` or any field value, plus arbitrary extra keys. */
function envelope(shape: Record<string, fc.Arbitrary<unknown>>) {
  return fc
    .tuple(
      fc.record(shape, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([known, extra, extraFirst, nullProto]) => {
      const out: Record<string, unknown> = nullProto ? Object.create(null) : {};
      const parts = extraFirst ? [extra, known] : [known, extra];
      for (const part of parts) for (const [k, v] of Object.entries(part)) out[k] = v;
      return out;
    });
}

const requestArb = fc.oneof(
  envelope({
    id: fc.oneof(fc.string({ minLength: 1 }), fieldArb),
    method: fc.oneof(fc.string(), fieldArb),
    params: fieldArb,
  }),
  envelope({ id: fc.string({ minLength: 1 }), method: fc.string({ minLength: 1 }), params: fieldArb, auth: fieldArb }),
  fc.anything(),
);

const responseArb = fc.oneof(
  envelope({
    id: fc.oneof(fc.string(), fieldArb),
    ok: fc.constantFrom(true, false, 'true', 1),
    result: fieldArb,
    streaming: fc.oneof(fc.constant(true), fieldArb),
    _meta: metaArb,
  }),
  envelope({
    id: fc.string(),
    ok: fc.constant(false),
    error: fc.oneof(
      fc.record(
        { code: fc.oneof(fc.string(), fieldArb), message: fc.oneof(fc.string(), fieldArb), data: fieldArb },
        { requiredKeys: [] },
      ),
      fieldArb,
    ),
    _meta: metaArb,
  }),
  envelope({ _keepalive: fc.oneof(fc.constant(true), fieldArb), ok: fieldArb, id: fieldArb }),
  fc.anything(),
);

/** Same accept/reject, same output values and the same own-key order as zod. */
function expectSame(got: unknown, want: unknown): void {
  expect(got).toStrictEqual(want);
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
}

describe('RPC envelope fast paths equal the zod schemas', () => {
  it('parseRequest: fast path (when it answers) and the public result equal zod on random and mutated inputs', () => {
    let answered = 0;
    fc.assert(
      fc.property(requestArb, (value) => {
        const zod = parseRequestWithZod(value);
        const fast = fastParseRequest(value);
        if (fast !== undefined) {
          answered++;
          expectSame(fast, zod);
        }
        expectSame(parseRequest(value), zod);
      }),
      { numRuns: 2000 },
    );
    // The generators hit the fast path often enough for the equality to mean something.
    expect(answered).toBeGreaterThan(100);
  });

  it('parseResponse: fast path (when it answers) and the public result equal zod on random and mutated inputs', () => {
    let answered = 0;
    fc.assert(
      fc.property(responseArb, (value) => {
        const zod = parseResponseWithZod(value);
        const fast = fastParseResponse(value);
        if (fast !== undefined) {
          answered++;
          expectSame(fast, zod);
        }
        expectSame(parseResponse(value), zod);
      }),
      { numRuns: 2000 },
    );
    // The generators hit the fast path often enough for the equality to mean something.
    expect(answered).toBeGreaterThan(100);
  });

  it('the fast paths answer the common well-formed envelopes (so the bench measures them)', () => {
    expect(fastParseRequest(JSON.parse('{"id":"1","method":"m","params":{"a":1},"auth":"t"}'))).toEqual({
      ok: true,
      value: { id: '1', method: 'm', params: { a: 1 }, meta: { auth: 't' } },
    });
    expect(fastParseResponse({ id: '1', ok: true, result: null, _meta: { runtimeId: 'r', x: 1 } })).toEqual({
      ok: true,
      value: { id: '1', ok: true, result: null, _meta: { runtimeId: 'r' } },
    });
    expect(fastParseResponse({ id: '1', ok: false, error: { code: 'c', message: 'm' } })).toEqual({
      ok: true,
      value: { id: '1', ok: false, error: { code: 'c', message: 'm' } },
    });
    expect(fastParseRequest({ id: '', method: 'm' })).toBeUndefined();
    expect(fastParseResponse({ id: '1', ok: true, result: 1, _meta: null })).toBeUndefined();
  });
});
