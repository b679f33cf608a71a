import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freezeStatusRow, isStableRowList, validRowList, validRows } from '../hooks/row-schema.ts';
import { AGENT_STATUS_STALE_AFTER_MS } from '../limits.ts';
import type { StatusRow } from '../types.ts';
import { evaluatePane } from './evaluate-pane.ts';
import { pickExplicitRow } from './explicit-row.ts';

/** Valid rows that exercise deny healing: waiting rows with a tool id or a dialog, ties in time. */
const validRow: fc.Arbitrary<StatusRow> = fc
  .record({
    state: fc.constantFrom('working', 'blocked', 'waiting', 'done'),
    receivedAt: fc.integer({ min: 0, max: 50 }),
    stateStartedAt: fc.integer({ min: 0, max: 50 }),
    source: fc.constantFrom('claude', 'codex'),
    via: fc.constantFrom('hook', 'osc'),
    toolUseId: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }),
    dialog: fc.option(fc.constant(true as const), { nil: undefined }),
  })
  .map((r) => {
    const row: Record<string, unknown> = { ...r };
    for (const key of Object.keys(row)) if (row[key] === undefined) delete row[key];
    return row as unknown as StatusRow;
  });

const stableList = (rows: readonly StatusRow[]): readonly unknown[] =>
  Object.freeze(rows.map((r) => freezeStatusRow({ ...r })));

describe('validRowList', () => {
  it('a frozen list of deep-frozen rows: validated once, the same frozen result at every call, equal to validRows', () => {
    fc.assert(
      fc.property(fc.array(validRow, { maxLength: 12 }), (rows) => {
        const list = stableList(rows);
        const first = validRowList(list);
        expect(validRowList(list)).toBe(first);
        expect(Object.isFrozen(first)).toBe(true);
        expect(isStableRowList(first)).toBe(true);
        expect(first).toEqual(validRows(structuredClone(rows)));
      }),
    );
  });

  it('a frozen list holding an open row, or an open list, is validated afresh (a change shows up)', () => {
    const open = { state: 'working', receivedAt: 1, stateStartedAt: 1, source: 'claude', via: 'hook' };
    const list = Object.freeze([open]);
    expect(validRowList(list)).toHaveLength(1);
    open.state = 'bogus';
    expect(validRowList(list)).toHaveLength(0);
    expect(isStableRowList(validRowList(list))).toBe(false);
    const mutable: unknown[] = [freezeStatusRow({ ...(open as object), state: 'done' } as StatusRow)];
    expect(validRowList(mutable)).toHaveLength(1);
    mutable.push({ nonsense: true }, freezeStatusRow({ ...(mutable[0] as StatusRow), receivedAt: 2 }));
    expect(validRowList(mutable)).toHaveLength(2);
  });
});

describe('pickExplicitRow on a stable list', () => {
  it('picks what it picks on the same rows in a plain list, for any time and healing flag', () => {
    fc.assert(
      fc.property(
        fc.array(validRow, { maxLength: 12 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 + AGENT_STATUS_STALE_AFTER_MS * 2 }), fc.boolean()), {
          minLength: 1,
          maxLength: 6,
        }),
        (rows, asks) => {
          const stable = validRowList(stableList(rows));
          const plain = structuredClone(rows);
          for (const [now, heal] of asks) {
            expect(pickExplicitRow(stable, now, heal)).toEqual(pickExplicitRow(plain, now, heal));
          }
        },
      ),
    );
  });

  it('evaluatePane gives the same verdict for the rows as a stable list and as plain copies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(validRow, { maxLength: 10 }), fc.integer({ min: 0, max: 100 }), async (rows, now) => {
        const base = { now, ptyId: 'p', waitBlockedAt: null, screen: ['> '], tail: '> ' };
        const list = stableList(rows);
        const stable = await evaluatePane({ ...base, rows: list as StatusRow[] });
        expect(await evaluatePane({ ...base, rows: list as StatusRow[] })).toEqual(stable);
        expect(await evaluatePane({ ...base, rows: structuredClone(rows) })).toEqual(stable);
      }),
    );
  });
});
