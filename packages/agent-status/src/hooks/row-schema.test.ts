import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatusRow } from '../types.ts';
import { freezeStatusRow, validRows } from './row-schema.ts';

const row = (patch: Partial<StatusRow> = {}): StatusRow => ({
  state: 'working',
  receivedAt: 1_000,
  stateStartedAt: 1_000,
  source: 'claude',
  via: 'hook',
  ...patch,
});

const anyRow = fc.oneof(
  fc.record({
    state: fc.constantFrom('working', 'blocked', 'waiting', 'done', 'bogus'),
    receivedAt: fc.oneof(fc.double(), fc.integer()),
    stateStartedAt: fc.integer(),
    source: fc.constantFrom('claude', 'codex', 'nobody'),
    via: fc.constantFrom('hook', 'osc'),
    subagents: fc.option(
      fc.array(fc.record({ id: fc.string(), state: fc.constantFrom('working', 'idle', 'x'), startedAt: fc.integer() })),
      { nil: undefined },
    ),
  }),
  fc.anything(),
);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('validRows', () => {
  it('gives the same rows for deep-frozen input as for the same rows unfrozen, every call', () => {
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 8 }), (rows) => {
        const plain = validRows(structuredClone(rows));
        const frozen = deepFreeze(structuredClone(rows));
        expect(validRows(frozen)).toEqual(plain);
        expect(validRows(frozen)).toEqual(plain);
      }),
    );
  });

  it('validates a deep-frozen row once; an unfrozen row at every call', () => {
    let reads = 0;
    const counted = (base: StatusRow): StatusRow => {
      const out = {} as Record<string, unknown>;
      for (const [k, v] of Object.entries(base))
        Object.defineProperty(out, k, {
          enumerable: true,
          get: () => {
            reads += 1;
            return v;
          },
        });
      return out as unknown as StatusRow;
    };
    const frozen = Object.freeze(counted(row()));
    validRows([frozen]);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(validRows([frozen])).toEqual([row()]);
    expect(reads).toBe(afterFirst);
    const open = counted(row());
    validRows([open]);
    const once = reads;
    validRows([open]);
    expect(reads).toBeGreaterThan(once);
  });

  it('a frozen row whose subagents list is not frozen is validated again (it may change)', () => {
    type Subagent = NonNullable<StatusRow['subagents']>[number];
    const subagents: Subagent[] = [{ id: 'a', state: 'working', startedAt: 1 }];
    const r = Object.freeze(row({ subagents }));
    expect(validRows([r])[0]?.subagents).toHaveLength(1);
    subagents.push({ id: 'b', state: 'idle', startedAt: 2 });
    expect(validRows([r])[0]?.subagents).toHaveLength(2);
  });

  it('freezeStatusRow freezes the row and its subagents, and the result is reused', () => {
    const r = freezeStatusRow(row({ subagents: [{ id: 'a', state: 'working', startedAt: 1 }] }));
    expect(Object.isFrozen(r) && Object.isFrozen(r.subagents) && Object.isFrozen(r.subagents?.[0])).toBe(true);
    expect(validRows([r])[0]).toBe(validRows([r])[0]);
  });
});
