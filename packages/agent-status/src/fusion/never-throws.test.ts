import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWaitStamp } from '../screen/wait-stamp.ts';
import type { PaneEvidence, StatusRow } from '../types.ts';
import { evaluatePane } from './evaluate-pane.ts';
import { evaluateTuiIdle } from './tui-idle.ts';

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    'Run this command?',
    '→ Run (once) (y)',
    'Skip (esc or n)',
    'Do you want to proceed?',
    '❯ 1. Yes',
    '2. No',
    '\x1b[31m',
    '\r',
    '│',
  ),
);
const lines = fc.array(text, { maxLength: 12 });

describe('no agent-originated input makes the engine throw (property)', () => {
  it('evaluatePane and evaluateTuiIdle resolve for any title, tail, screen and rows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          title: fc.option(
            fc.record({ text, live: fc.boolean(), restored: fc.boolean(), at: fc.option(fc.integer(), { nil: null }) }),
            {
              nil: undefined,
            },
          ),
          tail: fc.oneof(
            lines.map((l) => l.join('\n')),
            lines,
          ),
          screen: fc.option(lines, { nil: undefined }),
          rows: fc.array(
            fc.oneof(
              fc.anything(),
              fc.record({
                state: fc.constantFrom('working', 'waiting', 'done', 'x'),
                receivedAt: fc.integer(),
                stateStartedAt: fc.integer(),
                source: fc.constantFrom('claude', 'nope'),
                via: fc.constant('hook'),
              }),
            ),
            { maxLength: 4 },
          ),
          waitBlockedAt: fc.option(fc.integer(), { nil: null }),
        }),
        async (r) => {
          const e: PaneEvidence = {
            now: 1_000_000,
            ptyId: 'p',
            waitBlockedAt: r.waitBlockedAt,
            tail: r.tail,
            rows: r.rows as StatusRow[],
            ...(r.title ? { title: r.title } : {}),
            ...(r.screen ? { screen: r.screen } : {}),
          };
          const v = await evaluatePane(e);
          expect(['working', 'permission', 'idle', null]).toContain(v.status);
          const idle = await evaluateTuiIdle(e, { lastOutputAt: 0 });
          expect(['satisfied', 'blocked', 'pending']).toContain(idle.state);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the wait stamp takes any chunks', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), (chunks) => {
        const s = createWaitStamp();
        let now = 0;
        for (const c of chunks) {
          now += 7;
          const r = s.append(c, now);
          expect(r.waitBlockedAt === null || r.waitBlockedAt <= now).toBe(true);
        }
        s.flush(now + 100);
      }),
    );
  });
});
