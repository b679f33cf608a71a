import { until } from '@orca/testkit';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { acceptRelayed } from '../src/listener/trust-boundary.ts';
import { paneKey } from './helpers/fixtures.ts';
import { memoryRelay } from './helpers/memory-relay.ts';

const EVENTS = 100_000;
const PANES = 128;
const CONCURRENCY = 32;

describe('load: 100,000 hook events through the relay path with a slowed host reader', () => {
  it('every event is delivered, or superseded by a later delivered event of its pane; the counts add up', async () => {
    const delivered = new Map<string, number[]>();
    let ingestedNonReplay = 0;
    let replays = 0;
    const m = await memoryRelay({
      highWaterMark: 16 * 1024,
      // Why: a lower supersede threshold makes backpressure bite within a test-sized run.
      queueSupersedeBytes: 32 * 1024,
      onHook: (p) => {
        const r = acceptRelayed(p, 'netns:load', { now: () => Date.now() });
        if ('drop' in r) throw new Error(`dropped ${r.drop}`);
        if (r.isReplay === true) {
          replays += 1;
          return;
        }
        ingestedNonReplay += 1;
        const list = delivered.get(r.paneKey) ?? [];
        list.push(r.payload.seq as number);
        delivered.set(r.paneKey, list);
      },
    });
    // Slow host reader: stop reading 150 ms out of every 200 ms.
    const slow = setInterval(() => {
      m.stdout.pause();
      setTimeout(() => m.stdout.resume(), 150);
    }, 200);
    const pool = new Pool(`http://127.0.0.1:${m.port}`, { connections: CONCURRENCY, pipelining: 1 });
    const sent = new Map<string, number[]>();
    let next = 0;
    const worker = async () => {
      for (;;) {
        const seq = next++;
        if (seq >= EVENTS) return;
        const pane = paneKey(seq % PANES);
        const list = sent.get(pane) ?? [];
        list.push(seq);
        sent.set(pane, list);
        const res = await pool.request({
          method: 'POST',
          path: '/hook/claude',
          headers: { 'x-orca-agent-hook-token': m.token, 'content-type': 'application/json' },
          body: JSON.stringify({ paneKey: pane, payload: { seq, pad: 'p'.repeat(200) } }),
        });
        await res.body.dump();
        if (res.statusCode !== 204) throw new Error(`status ${res.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    clearInterval(slow);
    m.stdout.resume();
    const stats = () => m.relay.stats();
    await until('all events accounted', () => ingestedNonReplay + stats().superseded === EVENTS, { timeoutMs: 60_000 });
    await pool.close();
    const s = stats();
    console.log(
      `[load] accepted=${s.accepted} published=${s.published} superseded=${s.superseded} ingested=${ingestedNonReplay} replays=${replays}`,
    );
    expect(s.accepted).toBe(EVENTS);
    expect(s.accepted).toBe(s.published + s.superseded);
    expect(s.published).toBe(ingestedNonReplay);
    expect(s.superseded).toBeGreaterThan(0);
    expect(replays).toBe(0);
    // Per pane: delivered in send order, no duplicates, the last event always delivered;
    // each undelivered event has a later delivered one of its pane.
    let missing = 0;
    for (const [pane, seqs] of sent) {
      const got = delivered.get(pane) ?? [];
      const order = [...seqs].sort((a, b) => a - b);
      expect(new Set(got).size).toBe(got.length);
      expect(got.at(-1)).toBe(order.at(-1));
      const gotSet = new Set(got);
      for (const q of order) if (!gotSet.has(q)) missing += 1;
    }
    expect(missing).toBe(s.superseded);
    m.stdin.end();
  }, 170_000);
});
