import { describe, expect, it } from 'vitest';
import { CAPABILITIES, CAPABILITY_NAMES, defaultRequest, echoOf, grantFromEcho, negotiate } from './capabilities.ts';
import { parseSubscribe } from './payloads.ts';

const base = { streamId: 1, terminal: 't' };

describe('negotiation matrix', () => {
  for (const name of CAPABILITY_NAMES) {
    for (const value of ['absent', 1, 0, 2, true, '1', null] as const) {
      for (const clientType of ['desktop', 'mobile'] as const) {
        for (const sourceRanges of [true, false]) {
          it(`${name}=${String(value)} ${clientType} ranges=${sourceRanges}`, () => {
            const capabilities: Record<string, unknown> = {
              ackOutput: name === 'ackOutputSourceRanges' ? 1 : undefined,
            };
            if (value !== 'absent') capabilities[name] = value;
            const parsed = parseSubscribe({ ...base, client: { id: 'c', type: clientType }, capabilities });
            if (value !== 'absent' && value !== 1) {
              // Only the number 1 requests; another value for a known key fails the schema.
              expect(parsed.ok).toBe(false);
              return;
            }
            if (!parsed.ok) throw new Error(parsed.detail);
            const grant = negotiate(parsed.value.capabilities ?? {}, { clientType, sourceRanges });
            const expected =
              value === 1 &&
              (name !== 'desktopViewportClaims' || clientType === 'desktop') &&
              (name !== 'ackOutputSourceRanges' || sourceRanges);
            expect(grant.has(name)).toBe(expected);
            const echo = echoOf(grant);
            const event = { type: 'subscribed', capabilities: echo, streamGeneration: 'g1' };
            expect(grantFromEcho(event).capabilities).toEqual(grant.capabilities);
            if (grant.capabilities.length === 0) expect(echo).toBeUndefined();
          });
        }
      }
    }
  }

  it('strips unknown capability keys', () => {
    const parsed = parseSubscribe({ ...base, capabilities: { futureThing: 7, ackOutput: 1 } });
    expect(parsed.ok && parsed.value.capabilities).toEqual({ ackOutput: 1 });
  });

  it('client reads only === 1 and applies prerequisites', () => {
    expect(grantFromEcho({ capabilities: { ackOutput: true, desktopViewportClaims: 1 } }).capabilities).toEqual([
      'desktopViewportClaims',
    ]);
    expect(grantFromEcho({ capabilities: { ackOutputSourceRanges: 1 }, streamGeneration: 'g' }).capabilities).toEqual(
      [],
    );
    expect(grantFromEcho({ capabilities: { ackOutput: 1, ackOutputSourceRanges: 1 } }).capabilities).toEqual([
      'ackOutput',
    ]);
    expect(
      grantFromEcho({ capabilities: { ackOutput: 1, ackOutputSourceRanges: 1 }, streamGeneration: '' }).capabilities,
    ).toEqual(['ackOutput']);
    expect(grantFromEcho(null).capabilities).toEqual([]);
    expect(grantFromEcho({ capabilities: 'ackOutput' }).capabilities).toEqual([]);
  });

  it('defaultRequest asks for everything the build knows, minus viewport claims on mobile', () => {
    expect(defaultRequest('desktop')).toEqual(Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, 1])));
    expect(Object.keys(defaultRequest('mobile'))).toEqual(
      CAPABILITY_NAMES.filter((n) => n !== 'desktopViewportClaims'),
    );
    expect(Object.isFrozen(negotiate({}, { clientType: 'desktop', sourceRanges: false }))).toBe(true);
  });

  it('pins the capability table (append only)', () => {
    expect(CAPABILITIES).toMatchInlineSnapshot(`
      {
        "ackOutput": {
          "gates": [
            13,
          ],
          "requires": [],
          "since": "0.1.0",
        },
        "ackOutputSourceRanges": {
          "gates": [],
          "requires": [
            "ackOutput",
          ],
          "since": "0.1.0",
        },
        "desktopViewportClaims": {
          "gates": [
            14,
          ],
          "requires": [],
          "since": "0.1.0",
        },
        "outputPause": {
          "gates": [
            16,
          ],
          "requires": [],
          "since": "0.2.0",
        },
        "writeUnavailable": {
          "gates": [
            17,
          ],
          "requires": [],
          "since": "0.2.0",
        },
      }
    `);
  });
});
