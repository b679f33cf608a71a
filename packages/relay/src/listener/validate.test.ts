import { scanJsonShape } from '@orca/wire';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nested, PANE } from '../../test/helpers/fixtures.ts';
import { MAX_JSON_STRUCTURAL_TOKENS, MAX_METADATA_CHARS, MAX_PAYLOAD_JSON_DEPTH } from '../constants.ts';
import { decodeHookBody } from './decode-body.ts';
import { parseLimitedJson } from './json-limits.ts';
import { isPaneKey, METADATA_KEYS, validateHookBody } from './validate.ts';

const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
const tab = fc.string({ unit: fc.constantFrom(...'abcXYZ019._-'), minLength: 1, maxLength: 163 });
const validKey = fc
  .tuple(
    tab,
    hex(8),
    hex(4),
    fc.constantFrom('1', '2', '3', '4', '5'),
    hex(3),
    fc.constantFrom('8', '9', 'a', 'b'),
    hex(3),
    hex(12),
  )
  .map(([t, a, b, v, c, y, d, e]) => `${t}:${a}-${b}-${v}${c}-${y}${d}-${e}`);

function setLeafChar(k: string, i: number, c: string): string {
  const at = k.indexOf(':') + 1 + i;
  return k.slice(0, at) + c + k.slice(at + 1);
}

describe('isPaneKey (property)', () => {
  it('accepts every well-formed key', () => {
    fc.assert(fc.property(validKey, (k) => isPaneKey(k) && validateHookBody({ paneKey: k, payload: {} }).ok));
  });
  it('rejects each broken clause', () => {
    const breakers: ((k: string) => string)[] = [
      (k) => k.replace(':', ''), // no colon
      (k) => `${k.slice(0, k.indexOf(':'))}!${k.slice(k.indexOf(':'))}`, // bad tab char
      (k) => k.slice(k.indexOf(':')), // empty tab
      (k) => k.replace(/:./, ':A'), // uppercase / non-hex leaf
      (k) => setLeafChar(k, 14, '6'), // version 6
      (k) => setLeafChar(k, 19, 'c'), // bad variant
      (k) => `${k}0`, // leaf too long
      (k) => k.slice(0, -1), // leaf too short
    ];
    fc.assert(
      fc.property(validKey, fc.integer({ min: 0, max: breakers.length - 1 }), (k, i) => {
        const broken = (breakers[i] as (k: string) => string)(k);
        fc.pre(broken !== k);
        return !isPaneKey(broken) && !validateHookBody({ paneKey: broken, payload: {} }).ok;
      }),
    );
  });
  it('length limit ±1 (200 chars)', () => {
    const leaf = '123e4567-e89b-12d3-a456-426614174000';
    expect(isPaneKey(`${'t'.repeat(163)}:${leaf}`)).toBe(true); // 200
    expect(isPaneKey(`${'t'.repeat(164)}:${leaf}`)).toBe(false); // 201 (tab too long too)
    expect(isPaneKey(42)).toBe(false);
  });
  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.anything(), (v) => typeof validateHookBody(v).ok === 'boolean'));
    fc.assert(
      fc.property(fc.anything(), (v) => typeof validateHookBody({ paneKey: PANE, payload: v }).ok === 'boolean'),
    );
  });
});

describe('validateHookBody', () => {
  it.each(METADATA_KEYS)('%s: non-string → field, too long → field, empty/null → absent, trimmed', (key) => {
    expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: 5 })).toEqual({ ok: false, reason: 'field' });
    expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: 'x'.repeat(MAX_METADATA_CHARS + 1) })).toMatchObject({
      ok: false,
    });
    if (key !== 'tabId') {
      expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: 'x'.repeat(MAX_METADATA_CHARS) }).ok).toBe(true);
      expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: '  v ' })).toEqual({
        ok: true,
        event: { paneKey: PANE, payload: {}, [key]: 'v' },
      });
    }
    expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: null })).toEqual({
      ok: true,
      event: { paneKey: PANE, payload: {} },
    });
    expect(validateHookBody({ paneKey: PANE, payload: {}, [key]: '  ' })).toEqual({
      ok: true,
      event: { paneKey: PANE, payload: {} },
    });
  });
  it('tab mismatch', () => {
    expect(validateHookBody({ paneKey: PANE, tabId: 'tab-2', payload: {} })).toEqual({
      ok: false,
      reason: 'tab-mismatch',
    });
    expect(validateHookBody({ paneKey: PANE, tabId: 'tab-1', payload: {} }).ok).toBe(true);
  });
  it('payload must be an object or a string parsing to one', () => {
    for (const p of [[], 1, 'x', '[1]', null, undefined, true])
      expect(validateHookBody({ paneKey: PANE, payload: p }).ok).toBe(false);
    expect(validateHookBody({ paneKey: PANE, payload: '{"a":1}' })).toEqual({
      ok: true,
      event: { paneKey: PANE, payload: { a: 1 } },
    });
    expect(validateHookBody({ paneKey: PANE, payload: '{' })).toEqual({ ok: false, reason: 'json' });
  });
  it('hookEventName from body, else the payload fields in order', () => {
    expect(validateHookBody({ paneKey: PANE, hookEventName: 'A', payload: { hook_event_name: 'B' } })).toMatchObject({
      event: { hookEventName: 'A' },
    });
    expect(
      validateHookBody({ paneKey: PANE, payload: { hookType: 'D', hook_type: 'C', hookEventName: ' ' } }),
    ).toMatchObject({ event: { hookEventName: 'C' } });
    expect(validateHookBody({ paneKey: PANE, payload: {} })).toEqual({
      ok: true,
      event: { paneKey: PANE, payload: {} },
    });
  });
});

describe('JSON limits', () => {
  it('depth ±1 on a string payload', () => {
    expect(validateHookBody({ paneKey: PANE, payload: JSON.stringify(nested(MAX_PAYLOAD_JSON_DEPTH)) }).ok).toBe(true);
    expect(validateHookBody({ paneKey: PANE, payload: JSON.stringify(nested(MAX_PAYLOAD_JSON_DEPTH + 1)) })).toEqual({
      ok: false,
      reason: 'limits',
    });
  });
  it('structural tokens ±1', () => {
    // {"a":[0,…,0]} with n zeros: { } : [ ] plus n-1 commas = n + 4 tokens.
    const arr = (n: number) => `{"a":[${Array(n).fill(0).join(',')}]}`;
    const tokensOf = (s: string) => scanJsonShape(s, { maxDepth: 1000, maxTokens: Number.MAX_SAFE_INTEGER }).tokens;
    const n = MAX_JSON_STRUCTURAL_TOKENS - 4;
    expect(tokensOf(arr(n))).toBe(MAX_JSON_STRUCTURAL_TOKENS);
    expect(tokensOf(arr(n))).toBeLessThanOrEqual(MAX_JSON_STRUCTURAL_TOKENS);
    expect(parseLimitedJson(arr(n), 64).ok).toBe(true);
    expect(parseLimitedJson(arr(n + 1), 64)).toEqual({ ok: false, reason: 'limits' });
  });
  it('tokens inside strings are not counted; escapes honoured', () => {
    expect(scanJsonShape('{"a":"{[,:]}\\"{{"}', { maxDepth: 1, maxTokens: MAX_JSON_STRUCTURAL_TOKENS }).over).toBe(
      false,
    );
    expect(scanJsonShape('{"a":"{[,:]}\\"{{"}', { maxDepth: 1, maxTokens: MAX_JSON_STRUCTURAL_TOKENS }).tokens).toBe(3);
  });
  it('parseLimitedJson never throws (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof parseLimitedJson(s, 64).ok === 'boolean'));
    fc.assert(fc.property(fc.json(), (s) => parseLimitedJson(s, 1000).ok));
  });
});

describe('three body forms agree', () => {
  const meta = (fields: string[]) => Buffer.from(fields.join('\u001f'), 'utf8').toString('base64');
  const decodeValid = (r: ReturnType<typeof decodeHookBody>) => (r.ok ? validateHookBody(r.body) : r);

  for (const depth of [1, 5, MAX_PAYLOAD_JSON_DEPTH, MAX_PAYLOAD_JSON_DEPTH + 1]) {
    it(`JSON, form (± BOM) and raw-json-v1 at payload depth ${depth}`, () => {
      const payload = { ...nested(depth), hook_event_name: 'Stop' };
      const envelope = {
        paneKey: PANE,
        tabId: 'tab-1',
        launchToken: 'lt',
        worktreeId: 'w',
        env: 'local',
        version: '2',
        payload,
      };
      const asJson = decodeValid(
        decodeHookBody({ contentType: 'application/json', body: Buffer.from(JSON.stringify(envelope)) }),
      );
      const form = new URLSearchParams({ ...envelope, payload: JSON.stringify(payload) }).toString();
      const asForm = decodeValid(
        decodeHookBody({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from(form) }),
      );
      const asFormBom = decodeValid(
        decodeHookBody({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from(`\ufeff${form}`) }),
      );
      const asRaw = decodeValid(
        decodeHookBody({
          contentType: 'application/json; charset=utf-8',
          meta: meta([PANE, 'tab-1', 'lt', 'w', 'local', '2', 'extra']),
          metaEncoding: 'base64',
          body: Buffer.from(`\ufeff${JSON.stringify(payload)}`),
        }),
      );
      const asRawPlain = decodeValid(
        decodeHookBody({
          contentType: 'application/json',
          meta: [PANE, 'tab-1', 'lt', 'w', 'local', '2'].join(','),
          metaEncoding: 'plain',
          body: Buffer.from(JSON.stringify(payload)),
        }),
      );
      expect(asForm).toEqual(asJson);
      expect(asFormBom).toEqual(asJson);
      expect(asRaw).toEqual(asJson);
      expect(asRawPlain).toEqual(asJson);
      expect(asJson.ok).toBe(depth <= MAX_PAYLOAD_JSON_DEPTH);
    });
  }

  it('raw-json-v1 meta errors', () => {
    const body = Buffer.from('{}');
    expect(
      decodeHookBody({ contentType: 'application/json', meta: meta([PANE, 'a']), metaEncoding: 'base64', body }),
    ).toEqual({ ok: false, reason: 'meta' });
    expect(decodeHookBody({ contentType: 'application/json', meta: meta([PANE, '', '', '', '', '']), body })).toEqual({
      ok: false,
      reason: 'meta',
    });
    expect(decodeHookBody({ contentType: 'application/json', meta: '***', metaEncoding: 'base64', body })).toEqual({
      ok: false,
      reason: 'meta',
    });
  });
  it('raw-json-v1 plain meta: comma-separated in the endpoint charset, six fields or more', () => {
    const body = Buffer.from('{"hook_event_name":"Stop"}');
    const plain = (meta: string) =>
      decodeHookBody({ contentType: 'application/json', meta, metaEncoding: 'Plain', body });
    expect(plain(`${PANE},,,,,`)).toMatchObject({ ok: true, body: { paneKey: PANE, tabId: '', version: '' } });
    expect(plain(`${PANE},t,l,w,e,v,extra`)).toMatchObject({ ok: true, body: { tabId: 't', version: 'v' } });
    expect(plain(`${PANE},t`)).toEqual({ ok: false, reason: 'meta' });
    for (const bad of [`${PANE} ,,,,,`, `${PANE},\u001f,,,,`, `${PANE},é,,,,`, `${PANE};,,,,,`]) {
      expect(plain(bad)).toEqual({ ok: false, reason: 'meta' });
    }
    expect(
      decodeHookBody({ contentType: 'application/json', meta: `${PANE},,,,,`, metaEncoding: 'hex', body }),
    ).toEqual({
      ok: false,
      reason: 'meta',
    });
  });
  it('form: first occurrence wins; empty body = {}', () => {
    expect(decodeHookBody({ contentType: 'application/x-www-form-urlencoded', body: Buffer.from('a=1&a=2') })).toEqual({
      ok: true,
      body: { a: '1' },
    });
    expect(decodeHookBody({ contentType: 'application/json', body: Buffer.alloc(0) })).toEqual({ ok: true, body: {} });
  });
  it('decoding never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain'),
        fc.option(fc.string()),
        fc.constantFrom('base64', 'plain', 'other'),
        (b, ct, m, encoding) => {
          const r = decodeHookBody({ contentType: ct, meta: m ?? undefined, metaEncoding: encoding, body: b });
          return typeof (r.ok ? validateHookBody(r.body).ok : r.reason) !== 'undefined';
        },
      ),
    );
  });
});
