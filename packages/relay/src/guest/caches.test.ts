import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paneKey } from '../../test/helpers/fixtures.ts';
import type { HookEvent } from '../listener/types.ts';
import { SupersedingQueue } from './event-queue.ts';
import { guestPaths, sanitizeInstanceKey } from './paths.ts';
import { ReplayCache } from './replay-cache.ts';

const ev = (i: number, n = 0): HookEvent => ({ source: 'claude', paneKey: paneKey(i), payload: { n }, receivedAt: 0 });

describe('ReplayCache', () => {
  it('evicts by recency over the pane cap', () => {
    const c = new ReplayCache(3, 1e9);
    for (const i of [1, 2, 3]) c.set(ev(i), 10);
    c.set(ev(1, 1), 10); // refresh 1
    c.set(ev(4), 10); // evicts 2 (longest idle)
    expect(c.events().map((e) => e.paneKey)).toEqual([paneKey(3), paneKey(1), paneKey(4)]);
  });
  it('evicts by bytes', () => {
    const c = new ReplayCache(100, 25);
    c.set(ev(1), 10);
    c.set(ev(2), 10);
    c.set(ev(3), 10);
    expect(c.events().map((e) => e.paneKey)).toEqual([paneKey(2), paneKey(3)]);
    expect(c.bytes).toBe(20);
  });
  it('never exceeds its bounds (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 50 }))), (ops) => {
        const c = new ReplayCache(8, 200);
        for (const [i, b] of ops) c.set(ev(i), b);
        return c.size <= 8 && c.bytes <= 200 && new Set(c.events().map((e) => e.paneKey)).size === c.size;
      }),
    );
  });
});

describe('SupersedingQueue', () => {
  it('keeps FIFO order under the cap and only each pane’s latest past it (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 200 }), (panes) => {
        const q = new SupersedingQueue<number>(50);
        for (const [seq, p] of panes.entries()) q.push(String(p), 10, seq);
        const out: number[] = [];
        for (let v = q.shift(); v !== undefined; v = q.shift()) out.push(v);
        const sorted = [...out].sort((a, b) => a - b);
        const lastOf = new Map(panes.map((p, seq) => [p, seq]));
        return (
          JSON.stringify(out) === JSON.stringify(sorted) &&
          out.length + q.superseded === panes.length &&
          [...lastOf.values()].every((seq) => out.includes(seq))
        );
      }),
    );
  });
});

describe('instance key and paths', () => {
  it.each([
    [' Host-A ', 'host-a'],
    ['a'.repeat(64), 'a'.repeat(64)],
    ['a'.repeat(65), 'port4711'],
    ['-x', 'port4711'],
    ['a_b', 'port4711'],
    ['', 'port4711'],
    [undefined, 'port4711'],
  ])('%j → %s', (raw, want) => {
    expect(sanitizeInstanceKey(raw, 4711)).toBe(want);
  });
  it('endpoint path is instance-keyed under home (trailing / stripped)', () => {
    expect(guestPaths('/home/u/', 'k', '1.0.0+abc')).toEqual({
      home: '/home/u',
      endpointDir: '/home/u/.orca-guest/agent-hooks/instance-k',
      endpointPath: '/home/u/.orca-guest/agent-hooks/instance-k/endpoint.env',
      relayDir: '/home/u/.orca-guest/relay/1.0.0+abc',
      launchPath: '/home/u/.orca-guest/relay/1.0.0+abc/launch.sh',
    });
  });
});
