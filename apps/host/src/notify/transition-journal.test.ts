import { describe, expect, it } from 'vitest';
import type { LivePane, Verdict } from '../panes/live-pane.ts';
import { silentLogger } from '../runtime/logger.ts';
import type { Store } from '../store/store.ts';
import { createTransitionJournal } from './transition-journal.ts';

function fakePane(handle: string): LivePane & { exit: unknown } {
  return {
    record: { handle },
    exit: null,
    status: {
      agent: () => 'claude',
      explain: async () => ({
        explanation: {
          verdict: {},
          rule: 'hook-row',
          authority: 'hook',
          evidence: {},
          overrode: [],
          screenShowsPrompt: false,
        },
        recorded: { now: 0, screen: ['x'.repeat(100)] },
      }),
    },
  } as unknown as LivePane & { exit: unknown };
}

const verdict = (status: Verdict['status'], agentWait?: object): Verdict =>
  ({ status, isRunningAgent: true, ...(agentWait ? { agentWait } : {}) }) as unknown as Verdict;

describe('the transition journal', () => {
  // Each pane's changes are stored in order; panes interleave freely (sorted here by time).
  it('stores every change with its explanation; evidence at most once per interval per pane, always for a wait and an end', async () => {
    const rows: { handle: string; at: number; toStatus: string | null; recorded: string }[] = [];
    const store = { insertTransition: (t: (typeof rows)[number]) => void rows.push(t) } as unknown as Store;
    const journal = createTransitionJournal({
      store,
      log: silentLogger(),
      keepPerPane: 100,
      evidenceMinIntervalMs: 1_000,
      closed: () => false,
    });
    const a = fakePane('a');
    const b = fakePane('b');
    journal.record(a, verdict('working'), null, 0);
    journal.record(a, verdict('idle'), verdict('working'), 200);
    journal.record(b, verdict('working'), null, 250);
    journal.record(a, verdict('permission'), verdict('idle'), 300);
    journal.record(a, verdict('idle', { kind: 'question' }), verdict('permission'), 400);
    journal.record(a, verdict('working'), verdict('idle'), 500);
    journal.record(a, verdict('idle'), verdict('working'), 1_400);
    a.exit = { code: 0, signal: null };
    journal.record(a, verdict(null), verdict('idle'), 1_450);
    await journal.idle();
    expect(
      [...rows]
        .sort((x, y) => x.at - y.at)
        .map((r) => `${r.handle}@${r.at} ${r.toStatus} ${r.recorded === '' ? 'no evidence' : 'evidence'}`),
    ).toEqual([
      'a@0 working evidence',
      'a@200 idle no evidence',
      'b@250 working evidence',
      'a@300 permission evidence',
      'a@400 idle evidence',
      'a@500 working no evidence',
      'a@1400 idle evidence',
      'a@1450 null evidence',
    ]);
  });
});
