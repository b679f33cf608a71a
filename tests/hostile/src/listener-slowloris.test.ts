import { connect, type Socket } from 'node:net';
import { limits } from '@orca/relay/listener';
import { afterEach, describe, expect, it } from 'vitest';

const { MAX_HOOK_CONNECTIONS } = limits;

import {
  exchange,
  type ListenerTarget,
  rawHookPost,
  startListenerTarget,
  statusLines,
} from './listener-attack-host.ts';

let target: ListenerTarget | undefined;
afterEach(async () => {
  await target?.host.stop();
  target = undefined;
});

/** Generous bound around the listener's 5 s slow-client rule (timing on a loaded 2-core machine). */
const HOLD_BOUND_MS = 10_000;

describe('attack: hold the hook listener sockets open (slowloris)', () => {
  it(`idle, header-stalled and body-stalled sockets are closed within ${HOLD_BOUND_MS / 1000} s, and the host keeps serving`, async () => {
    target = await startListenerTarget();
    const { port, token, paneKey } = target;
    const head = 'POST /hook/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Orca-Agent-';
    const body = JSON.stringify({ paneKey, payload: { hook_event_name: 'Notification' } });
    const [idle, headerStalled, bodyStalled] = await Promise.all([
      exchange(port, ''),
      exchange(port, head),
      exchange(port, rawHookPost({ token, body }).slice(0, -10)),
    ]);
    console.log(
      `hook listener hold time: idle ${(idle.heldMs / 1000).toFixed(1)} s, header-stalled ` +
        `${(headerStalled.heldMs / 1000).toFixed(1)} s, body-stalled ${(bodyStalled.heldMs / 1000).toFixed(1)} s ` +
        `(rule 5 s, bound ${HOLD_BOUND_MS / 1000} s)`,
    );
    expect(idle.heldMs).toBeLessThan(HOLD_BOUND_MS);
    expect(headerStalled.heldMs).toBeLessThan(HOLD_BOUND_MS);
    expect(bodyStalled.heldMs).toBeLessThan(HOLD_BOUND_MS);
    expect(statusLines(bodyStalled.reply)).toEqual(['HTTP/1.1 408']);
    const after = await exchange(port, rawHookPost({ token, body, extraHeaders: 'Connection: close\r\n' }));
    expect(statusLines(after.reply)).toEqual(['HTTP/1.1 204']);
    expect(target.host.alive()).toBe(true);
  }, 120_000);

  it(`a flood of ${MAX_HOOK_CONNECTIONS + 64} idle connections: those past the cap of ${MAX_HOOK_CONNECTIONS} are shed at once, the rest within the bound`, async () => {
    target = await startListenerTarget();
    const { port } = target;
    const flood = MAX_HOOK_CONNECTIONS + 64;
    const t0 = performance.now();
    const closedAt: number[] = [];
    const sockets: Socket[] = [];
    await Promise.all(
      Array.from(
        { length: flood },
        () =>
          new Promise<void>((resolve) => {
            const s = connect(port, '127.0.0.1');
            sockets.push(s);
            s.on('error', () => undefined);
            s.resume();
            s.on('close', () => closedAt.push(performance.now() - t0));
            s.on('connect', () => resolve());
            s.on('close', () => resolve());
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const shedFast = closedAt.length;
    const deadline = performance.now() + 40_000;
    while (closedAt.length < flood && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    for (const s of sockets) s.destroy();
    const sorted = [...closedAt].sort((a, b) => a - b);
    console.log(
      `flood of ${flood}: ${shedFast} closed within 1 s, all ${closedAt.length} closed by ` +
        `${((sorted.at(-1) ?? Number.NaN) / 1000).toFixed(1)} s (cap ${MAX_HOOK_CONNECTIONS})`,
    );
    expect(shedFast).toBeGreaterThanOrEqual(flood - MAX_HOOK_CONNECTIONS);
    expect(closedAt.length).toBe(flood);
    expect(sorted.at(-1)).toBeLessThan(HOLD_BOUND_MS + 1_000);
    expect(target.host.alive()).toBe(true);
  }, 120_000);
});
