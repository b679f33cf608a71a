import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFragment } from './fragment.ts';
import { checkToken, reconnectDelay } from './reconnect.ts';

describe('parseFragment', () => {
  it('reads pairing codes and pane handles', () => {
    expect(parseFragment('')).toEqual({ kind: 'none' });
    expect(parseFragment('#pair=abcDEF123_-xyz')).toEqual({ kind: 'pair', code: 'abcDEF123_-xyz' });
    expect(parseFragment('#pane=pane-1a2b')).toEqual({ kind: 'pane', handle: 'pane-1a2b' });
    expect(parseFragment('#pane=a%20b')).toEqual({ kind: 'pane', handle: 'a b' });
  });

  it('says what is wrong with a malformed fragment instead of throwing', () => {
    expect(parseFragment('#pane=%E0%A4%A')).toMatchObject({ kind: 'bad', message: expect.stringMatching(/malformed/) });
    expect(parseFragment('#pair=<script>')).toMatchObject({ kind: 'bad' });
    expect(parseFragment('#pane=%0a')).toMatchObject({ kind: 'bad' });
    expect(parseFragment('#whatever')).toMatchObject({ kind: 'bad' });
  });

  it('never throws on any fragment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (s) => {
        const f = parseFragment(`#${s}`);
        expect(['none', 'pair', 'pane', 'bad']).toContain(f.kind);
      }),
    );
  });
});

describe('reconnect', () => {
  it('backs off from 1 s, doubling, to at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('only an explicit 401 refuses the token; 429 and network failures say nothing about it', async () => {
    const answer = (status: number, body: unknown) => async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    expect(await checkToken('t', answer(200, { ok: true }) as typeof fetch)).toEqual({ kind: 'valid' });
    expect(await checkToken('t', answer(401, { ok: false, reason: 'revoked' }) as typeof fetch)).toEqual({
      kind: 'refused',
      reason: 'revoked',
    });
    expect(await checkToken('t', answer(429, {}) as typeof fetch)).toEqual({ kind: 'limited' });
    expect(await checkToken('t', answer(502, {}) as typeof fetch)).toEqual({ kind: 'unreachable' });
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await checkToken('t', down)).toEqual({ kind: 'unreachable' });
  });
});
