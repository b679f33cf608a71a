import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaneEvidence, StatusRow } from '../types.ts';
import { analysePane, evaluatePane } from './evaluate-pane.ts';
import type { ProbeGate } from './probe-gate.ts';

// Without a probe the verdict is decided synchronously; with a probe that reads nothing, the same
// evidence goes through the awaited path. Both must agree on every input (fast path ≡ slow path).
const silentGate: ProbeGate = {
  run: async () => ({ cheap: null, confirmed: null }),
  inFlight: 0,
};
const silentProbe = { read: async () => null };

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    'Run this command?',
    '→ Run (once) (y)',
    'Skip (esc or n)',
    'Do you want to proceed?',
    '❯ 1. Yes',
    '2. No',
    'Update available! 1 -> 2',
    'Press enter to continue',
    '✳ Claude Code',
    '⠋ codex working',
    'OC | task',
    'bash',
    '\x1b[31m',
  ),
);
const lines = fc.array(text, { maxLength: 10 });
const rowArb = fc.record({
  state: fc.constantFrom('working', 'waiting', 'blocked', 'done'),
  receivedAt: fc.integer({ min: 0, max: 2000 }),
  stateStartedAt: fc.integer({ min: 0, max: 2000 }),
  source: fc.constantFrom('claude', 'codex'),
  via: fc.constant('hook'),
});

const evidence = fc
  .record({
    title: fc.option(
      fc.record({
        text,
        live: fc.boolean(),
        restored: fc.boolean(),
        at: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
      }),
      { nil: undefined },
    ),
    tail: fc.oneof(
      lines.map((l) => l.join('\n')),
      lines,
    ),
    screen: fc.option(lines, { nil: undefined }),
    rows: fc.array(rowArb, { maxLength: 3 }),
    waitBlockedAt: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
    exited: fc.boolean(),
  })
  .map(
    (r): PaneEvidence => ({
      now: 2000,
      ptyId: 'p',
      waitBlockedAt: r.waitBlockedAt,
      tail: r.tail,
      rows: r.rows as StatusRow[],
      ...(r.exited ? { exited: true } : {}),
      ...(r.title ? { title: r.title } : {}),
      ...(r.screen ? { screen: r.screen } : {}),
    }),
  );

describe('evaluatePane: the synchronous no-probe path ≡ the awaited probe path (property)', () => {
  it('same verdict with no probe and with a probe that reads nothing', async () => {
    await fc.assert(
      fc.asyncProperty(evidence, fc.boolean(), async (e, wait) => {
        const sync = await evaluatePane(e, { wait });
        const awaited = await evaluatePane({ ...e, probe: silentProbe }, { wait, gate: silentGate });
        expect(sync).toEqual(awaited);
        const a = await analysePane(e, { wait });
        const b = await analysePane({ ...e, probe: silentProbe }, { wait, gate: silentGate });
        expect(a.verdict).toEqual(b.verdict);
        expect(a.signal).toEqual(b.signal);
        expect(await a.foreground()).toEqual(await b.foreground());
      }),
      { numRuns: 400 },
    );
  });

  it('a contract violation is a rejection, never a synchronous throw', async () => {
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = evaluatePane({ now: Number.NaN, ptyId: 'p', waitBlockedAt: null });
    }).not.toThrow();
    await expect(pending).rejects.toMatchObject({ code: 'ORCA_STATUS_INVALID_EVIDENCE' });
    await expect(analysePane({ now: 1, ptyId: '', waitBlockedAt: null })).rejects.toMatchObject({
      code: 'ORCA_STATUS_INVALID_EVIDENCE',
    });
  });
});
