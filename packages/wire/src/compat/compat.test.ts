import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDispatcher, defineMethod } from '../rpc/dispatcher.ts';
import { parseResponse } from '../rpc/envelope.ts';
import { checkCompat, isCapabilityName, StatusGetResultSchema } from './status.ts';
import { readTri, triFrom, writeTri } from './tri.ts';

const client = { runtimeProtocolVersion: 3, minCompatibleRuntimeServerVersion: 3, appVersion: '1.0.0' };
const host = { runtimeProtocolVersion: 3, minCompatibleRuntimeClientVersion: 3, appVersion: '1.0.0', capabilities: [] };

describe('checkCompat', () => {
  it.each([
    ['same versions', host, 'ok', []],
    ['app skew only warns', { ...host, appVersion: '2.0.0' }, 'ok', ['app-version-skew']],
    ['client too old', { ...host, minCompatibleRuntimeClientVersion: 4 }, 'client-too-old', []],
    ['server too old', { ...host, runtimeProtocolVersion: 2 }, 'server-too-old', []],
    [
      'client-too-old wins over server-too-old',
      { ...host, runtimeProtocolVersion: 2, minCompatibleRuntimeClientVersion: 9 },
      'client-too-old',
      [],
    ],
    ['absent host version = 0 → server too old', { appVersion: '1.0.0' }, 'server-too-old', []],
    ['absent min = 0', { runtimeProtocolVersion: 3, appVersion: '1.0.0' }, 'ok', []],
    ['wrong-typed version', { ...host, runtimeProtocolVersion: '3' }, 'unknown', []],
    ['wrong-typed appVersion', { ...host, appVersion: 1 }, 'unknown', []],
    ['negative version', { ...host, runtimeProtocolVersion: -1 }, 'unknown', []],
    ['failed call', new Error('timeout'), 'unknown', []],
    ['undefined', undefined, 'unknown', []],
    ['null', null, 'unknown', []],
    ['array', [], 'unknown', []],
    ['string', 'ok', 'unknown', []],
  ] as const)('%s', (_name, status, verdict, warnings) => {
    expect(checkCompat(client, status)).toEqual({ verdict, warnings });
  });

  it('never throws and never says ok for non-objects (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const r = checkCompat(client, v);
        if (typeof v !== 'object' || v === null) expect(r.verdict).toBe('unknown');
      }),
    );
  });

  it('extra status.get keys are stripped', () => {
    expect(StatusGetResultSchema.parse({ ...host, future: 1 })).toEqual(host);
  });

  it('isCapabilityName checks area.feature.vN', () => {
    expect(['terminal.multiplex.v1', 'agent.wait.v12'].every(isCapabilityName)).toBe(true);
    expect(['terminal.multiplex', 'a.b.v0', 'A.b.v1', 'a.b.c.v1', 3].some(isCapabilityName)).toBe(false);
  });
});

describe('tri-state fields', () => {
  it('reads own keys: absent, null, value', () => {
    expect(readTri({}, 'agentWait')).toEqual({ kind: 'absent' });
    expect(readTri(Object.create({ agentWait: 1 }), 'agentWait')).toEqual({ kind: 'absent' });
    expect(readTri({ agentWait: null }, 'agentWait')).toEqual({ kind: 'null' });
    expect(readTri({ agentWait: { reason: 'x' } }, 'agentWait')).toEqual({ kind: 'value', value: { reason: 'x' } });
    expect(triFrom(undefined)).toEqual({ kind: 'absent' });
    expect(triFrom(null)).toEqual({ kind: 'null' });
    expect(triFrom(0)).toEqual({ kind: 'value', value: 0 });
  });

  it('round-trips all three states through the RPC envelope, absent stays absent', async () => {
    const states = [triFrom(undefined), triFrom(null), triFrom({ reason: 'approval' })];
    const dispatcher = createDispatcher({
      runtimeId: 'r',
      methods: [
        defineMethod({
          name: 'terminal.show',
          params: z.object({ i: z.number() }),
          handler: ({ i }) => writeTri({ handle: 't' }, 'agentWait', states[i] ?? triFrom(undefined)),
        }),
      ],
    });
    for (const [i, tri] of states.entries()) {
      const wire = JSON.parse(
        JSON.stringify(await dispatcher.dispatch(JSON.stringify({ id: 'x', method: 'terminal.show', params: { i } }))),
      );
      const parsed = parseResponse(wire);
      const result = parsed.ok && 'result' in parsed.value ? parsed.value.result : undefined;
      expect(readTri(result, 'agentWait')).toEqual(tri);
      expect(Object.hasOwn(result as object, 'agentWait')).toBe(tri.kind !== 'absent');
    }
  });

  it('src/ has no `?? null`', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && /\?\?\s*null/.test(readFileSync(path, 'utf8'))) {
          offenders.push(path);
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
