import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendStableRow } from '../hooks/row-schema.ts';
import type { StatusRow } from '../types.ts';
import { pendingDialogRowAt, pickExplicitRow } from './explicit-row.ts';

const anyRow = fc.record({
  state: fc.constantFrom('working', 'blocked', 'waiting', 'done'),
  // Why: few distinct times, so ties and dropped rows holding the newest arrival happen often.
  receivedAt: fc.integer({ min: 0, max: 8 }),
  stateStartedAt: fc.constant(0),
  source: fc.constant('claude'),
  via: fc.constant('hook'),
  toolUseId: fc.option(fc.constant('t1'), { nil: undefined }),
  dialog: fc.option(fc.constant(true), { nil: undefined }),
}) as fc.Arbitrary<StatusRow>;

/** The §7 rule as written: a dialog row is ignored when healing, or when any newer non-permission row came. */
function referenceExplicit(rows: readonly StatusRow[], heal: boolean): StatusRow | undefined {
  const isPermission = (r: StatusRow) => r.state === 'blocked' || r.state === 'waiting';
  const ignored = (r: StatusRow) =>
    r.state === 'waiting' &&
    (r.toolUseId !== undefined || r.dialog === true) &&
    (heal || rows.some((o) => !isPermission(o) && o.receivedAt > r.receivedAt));
  const floor = Math.max(Number.NEGATIVE_INFINITY, ...rows.filter(ignored).map((r) => r.receivedAt));
  let best: StatusRow | undefined;
  for (const r of rows) {
    if (r.receivedAt < floor || ignored(r)) continue;
    if (
      !best ||
      r.receivedAt > best.receivedAt ||
      (r.receivedAt === best.receivedAt && (isPermission(r) || !isPermission(best)))
    )
      best = r;
  }
  return best;
}

describe('pickExplicitRow', () => {
  it('picks what the rule as written picks (healing on and off)', () => {
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 30 }), fc.boolean(), (rows, heal) => {
        expect(pickExplicitRow(rows, 9, heal)).toEqual(referenceExplicit(rows, heal));
      }),
    );
  });
});

describe('pendingDialogRowAt on lists kept by appending', () => {
  it('gives what a scan of the same rows gives, after every append (the summary is kept a row at a time)', () => {
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (input, max) => {
        let stable = appendStableRow([], null, max);
        for (const row of input) {
          stable = appendStableRow(stable, row, max);
          // An open copy of the same rows takes the scanning path.
          const open = stable.map((r) => ({ ...r }));
          expect(pendingDialogRowAt(stable)).toBe(pendingDialogRowAt(open));
          expect(pickExplicitRow(stable, 9, false)).toEqual(pickExplicitRow(open, 9, false));
        }
      }),
    );
  });
});

describe('pickExplicitRow on lists kept by appending', () => {
  it('picks what the rule as written picks, judged after some appends only (the choice is kept a row at a time)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anyRow, fc.boolean(), fc.boolean()), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (input, max) => {
          let stable = appendStableRow([], null, max);
          for (const [row, judge, heal] of input) {
            stable = appendStableRow(stable, row, max);
            // Why: a list judged for one flag only, or not at all, must not leave the next one wrong.
            if (!judge) continue;
            expect(pickExplicitRow(stable, 9, heal)).toBe(referenceExplicit(stable, heal));
            expect(pickExplicitRow(stable, 9, !heal)).toBe(referenceExplicit(stable, !heal));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
