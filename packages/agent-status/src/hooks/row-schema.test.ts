import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatusRow } from '../types.ts';
import {
  appendStableRow,
  freezeStatusRow,
  isStableRowList,
  stableListStep,
  validRowList,
  validRows,
} from './row-schema.ts';

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

describe('appendStableRow', () => {
  it('keeps the newest rows, drops an invalid one, and hands back a list validRowList returns unchanged', () => {
    let rows: readonly StatusRow[] = Object.freeze([]);
    for (let i = 1; i <= 5; i++) rows = appendStableRow(rows, row({ receivedAt: i }), 3);
    expect(rows.map((r) => r.receivedAt)).toEqual([3, 4, 5]);
    expect(isStableRowList(rows) && validRowList(rows) === rows).toBe(true);
    const same = appendStableRow(rows, { state: 'bogus' }, 3);
    expect(same).toBe(rows);
    expect(Object.isFrozen(rows) && rows.every((r) => Object.isFrozen(r))).toBe(true);
  });

  it('gives the same rows as validating the appended list whole (any rows, any order)', () => {
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (input, max) => {
        let stable = appendStableRow([], null, max);
        let plain: unknown[] = [];
        for (const r of input) {
          stable = appendStableRow(stable, r, max);
          if (validRows([r]).length === 1) plain = [...plain, r].slice(-max);
        }
        expect(stable).toEqual(validRows(plain));
        expect(validRowList(stable)).toBe(stable);
      }),
    );
  });

  it('an open list given first is copied, not frozen in place', () => {
    const open = [row({ receivedAt: 1 })];
    const next = appendStableRow(open, row({ receivedAt: 2 }), 4);
    expect(Object.isFrozen(open) || Object.isFrozen(open[0])).toBe(false);
    expect(next.map((r) => r.receivedAt)).toEqual([1, 2]);
  });

  it('keeps one step back only: a list does not hold every list before it (a pane appends for its whole life)', () => {
    let rows = appendStableRow([], null, 4);
    for (let i = 1; i <= 10; i++) rows = appendStableRow(rows, row({ receivedAt: i }), 4);
    const step = stableListStep(rows);
    expect(step?.added.receivedAt).toBe(10);
    expect(step && stableListStep(step.prior)).toBeUndefined();
  });

  it('an open list with an invalid row appended comes back stable', () => {
    const out = appendStableRow([row({ receivedAt: 1 })], { state: 'bogus' }, 4);
    expect(isStableRowList(out) && Object.isFrozen(out)).toBe(true);
    expect(validRowList(out)).toBe(out);
  });
});
