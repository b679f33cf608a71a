/**
 * Real-world hook shapes: each `fixtures/real-world/<name>/` holds the hook script, the config
 * that registers it (`case.json`) and the expected result beside it (`expected.json`).
 */
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { POLICIES, tempDir, testRunner, writeText } from '../test/support.ts';
import { discoverHooks } from './discover.ts';
import { type CanonicalEvent, EVENT_TRAITS, type EventPayloads } from './events.ts';
import type { AsyncOutcome } from './outcome.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/real-world/', import.meta.url));

interface FixtureCase {
  configFile: string;
  config: unknown;
  event: CanonicalEvent;
  payload?: EventPayloads[CanonicalEvent];
  payloads?: EventPayloads[CanonicalEvent][];
}
interface FixtureExpected {
  outcome?: unknown;
  outcomeStrict?: unknown;
  asyncOutcomes?: AsyncOutcome[];
  records: Record<string, unknown>[];
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** `@@1MB@@` in a payload string expands to 1 MB of text (a payload larger than any pipe buffer). */
function expand(payload: unknown): unknown {
  return JSON.parse(JSON.stringify(payload), (_k, v: unknown) => (v === '@@1MB@@' ? 'p'.repeat(1024 * 1024) : v));
}

describe('real-world hook shapes', () => {
  for (const name of readdirSync(FIXTURES).sort()) {
    const dir = path.join(FIXTURES, name);
    const c = readJson<FixtureCase>(path.join(dir, 'case.json'));
    const expected = readJson<FixtureExpected>(path.join(dir, 'expected.json'));
    for (const policy of POLICIES) {
      it(`${name} × ${policy}`, async () => {
        const root = tempDir();
        for (const f of readdirSync(dir))
          if (f.startsWith('hook.')) copyFileSync(path.join(dir, f), path.join(root, f));
        writeText(root, c.configFile, JSON.stringify(c.config));
        const found = await discoverHooks(root, { home: path.join(root, 'no-home') });
        expect({ warnings: found.warnings, errors: found.errors }).toEqual({ warnings: [], errors: [] });
        const asyncOutcomes: AsyncOutcome[] = [];
        const t = testRunner({
          hooks: found.hooks,
          failurePolicy: policy,
          baseEnv: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` },
          onAsyncOutcome: (e) => asyncOutcomes.push(e.outcome),
        });
        const payloads = (c.payloads ?? [c.payload]).map(expand);
        for (const payload of payloads) {
          if (EVENT_TRAITS[c.event].dispatch === 'blocking') {
            const outcome = await t.runner.emit(c.event as 'toolGate', payload as EventPayloads['toolGate']);
            expect(outcome).toEqual(
              policy === 'strict' && expected.outcomeStrict ? expected.outcomeStrict : expected.outcome,
            );
          } else {
            t.runner.emitDetached(c.event, payload as never);
            await t.runner.whenIdle();
          }
        }
        expect(asyncOutcomes).toEqual(expected.asyncOutcomes ?? []);
        const runs = t.runs();
        expect(runs).toHaveLength(expected.records.length);
        for (const [i, r] of runs.entries()) expect(r).toMatchObject(expected.records[i] ?? {});
      });
    }
  }
});
