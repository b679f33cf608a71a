import { describe, expect, it } from 'vitest';
import type { LivePane, Verdict } from './live-pane.ts';
import { createVerdictPublisher, type VerdictChange } from './verdict-publisher.ts';

const pane = (handle: string) => ({ record: { handle } }) as unknown as LivePane;
const working: Verdict = { status: 'working', isRunningAgent: true, agentWait: null };
const idle: Verdict = { status: 'idle', isRunningAgent: true, agentWait: null };
const asking: Verdict = {
  status: 'permission',
  isRunningAgent: true,
  agentWait: { source: 'hook', reason: 'agent-approval-prompt', since: 5 },
};

function setup() {
  const order: string[] = [];
  const stored: unknown[] = [];
  let publishing = true;
  let clock = 100;
  const publisher = createVerdictPublisher({
    store: {
      insertVerdict: (v) => {
        order.push(`store ${v.status}`);
        stored.push(v);
      },
      // Why: a verdict an earlier host published (pane `old`) is only in the store.
      latestVerdict: (handle) => {
        order.push(`read ${handle}`);
        return handle === 'old'
          ? { handle, at: 7, status: 'idle', isRunningAgent: true, agentWait: { kind: 'null' } as const }
          : null;
      },
    },
    now: () => clock++,
    publishing: () => publishing,
    onTurnEnd: (p) => order.push(`turn end ${p.record.handle}`),
    onPublished: (p, v, previous, at) =>
      order.push(`journal ${p.record.handle} ${previous?.status}→${v.status} @${at}`),
  });
  return { publisher, order, stored, stop: () => (publishing = false) };
}

describe('the verdict publisher (one way: stamp, store, broadcast, follow)', () => {
  it('stores each verdict, then tells every subscriber, then the followers, in that order', () => {
    const { publisher, order, stored } = setup();
    const seen: VerdictChange[] = [];
    publisher.subscribe((c) => {
      order.push(`subscriber ${c.verdict.status}`);
      seen.push(c);
    });
    const p = pane('pane-1');
    publisher.publish(p, asking, working);
    expect(order).toEqual(['store permission', 'subscriber permission', 'journal pane-1 working→permission @100']);
    expect(publisher.current('pane-1')?.at).toBe(100);
    expect(seen).toEqual([{ handle: 'pane-1', at: 100, verdict: asking }]);
    expect(stored).toEqual([
      {
        handle: 'pane-1',
        at: 100,
        status: 'permission',
        isRunningAgent: true,
        // Why: stored as absent / null / value (a Tri), so absent never becomes null on disk.
        agentWait: { kind: 'value', value: { source: 'hook', reason: 'agent-approval-prompt', since: 5 } },
      },
    ]);
  });

  it('runs the turn-end followers only on working → idle', () => {
    const { publisher, order } = setup();
    const p = pane('pane-2');
    publisher.publish(p, idle, asking);
    publisher.publish(p, working, idle);
    publisher.publish(p, idle, working);
    expect(order.filter((l) => l.startsWith('turn end'))).toEqual(['turn end pane-2']);
  });

  it('publishes nothing while the host stops, and an unsubscribed listener hears nothing more', () => {
    const { publisher, order, stop } = setup();
    const heard: string[] = [];
    const off = publisher.subscribe((c) => heard.push(c.handle));
    publisher.publish(pane('a'), idle, null);
    off();
    publisher.publish(pane('b'), idle, null);
    stop();
    publisher.publish(pane('c'), working, idle);
    expect(heard).toEqual(['a']);
    expect(order.filter((l) => l.startsWith('store'))).toEqual(['store idle', 'store idle']);
  });

  it("latest is the one source of a pane's verdict: the newest published, else the store once, forgotten on remove", () => {
    const { publisher, order } = setup();
    expect(publisher.latest('old')).toEqual({
      verdict: { status: 'idle', isRunningAgent: true, agentWait: null },
      at: 7,
    });
    expect(publisher.latest('old')?.at).toBe(7);
    expect(order.filter((l) => l === 'read old')).toHaveLength(1);
    expect(publisher.latest('new')).toBeNull();
    const p = pane('new');
    publisher.publish(p, working, null);
    expect(publisher.latest('new')).toEqual({ verdict: working, at: 100 });
    expect(publisher.current('new')).toEqual({ verdict: working, at: 100 });
    publisher.forget('new');
    expect(publisher.latest('new')).toBeNull();
  });
});
