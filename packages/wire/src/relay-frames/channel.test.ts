import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { createRelayChannel } from './channel.ts';
import type { RelayChannel, RelayChannelOptions } from './channel-types.ts';
import { RelayFrameDecoder } from './decoder.ts';
import { encodeRelayFrame, RelayFrameType } from './frame.ts';
import { encodeHandshake } from './handshake.ts';
import { LinkError, RemoteError } from './link-errors.ts';

const enc = new TextEncoder();

/** Two channels joined in memory; `cut` stops delivery in one direction (a frozen peer). */
function pair(overrides: Partial<RelayChannelOptions> = {}) {
  const clock = createManualClock(1000);
  const sentByA: Uint8Array[] = [];
  const sentByB: Uint8Array[] = [];
  const cut = { aToB: false, bToA: false };
  let b: RelayChannel | undefined;
  const a = createRelayChannel({
    policy: 'close',
    clock,
    write: (bytes) => {
      sentByA.push(bytes);
      if (!cut.aToB) queueMicrotask(() => b?.receive(bytes));
      return true;
    },
    ...overrides,
  });
  b = createRelayChannel({
    policy: 'close',
    clock,
    write: (bytes) => {
      sentByB.push(bytes);
      if (!cut.bToA) queueMicrotask(() => a.receive(bytes));
      return true;
    },
  });
  a.start();
  b.start();
  return { a, b, clock, sentByA, sentByB, cut };
}

function regular(seq: number, message: unknown): Uint8Array {
  return encodeRelayFrame({ type: RelayFrameType.Regular, seq, ack: 0, payload: enc.encode(JSON.stringify(message)) });
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('createRelayChannel', () => {
  it('carries requests, results and notifications', async () => {
    const { a, b } = pair();
    b.onRequest('add', (p) => (p as { x: number; y: number }).x + (p as { x: number; y: number }).y);
    const notes: unknown[] = [];
    b.onNotification('note', (p) => notes.push(p));
    await expect(a.request('add', { x: 2, y: 3 })).resolves.toBe(5);
    a.notify('note', { n: 1 });
    await flush();
    expect(notes).toEqual([{ n: 1 }]);
  });

  it('notify returns the byte length of the payload it framed', () => {
    const { a, sentByA } = pair();
    const before = sentByA.length;
    const bytes = a.notify('note', { text: 'héllo' });
    const { frames } = new RelayFrameDecoder().push(sentByA[before] as Uint8Array);
    expect(frames).toHaveLength(1);
    expect(bytes).toBe(frames[0]?.payload.length);
    expect(bytes).toBe(
      enc.encode(JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { text: 'héllo' } })).length,
    );
  });

  it('answers an unknown method with -32601 and the same id', async () => {
    const { a } = pair();
    await expect(a.request('nope')).rejects.toMatchObject({ rpcCode: -32601, nodeCode: null });
  });

  it('maps thrown errors: integer code, Node code table, default, nodeCode string/null, non-object data', async () => {
    const { a, b } = pair();
    b.onRequest('enoent', () => {
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', data: { path: '/x' } });
    });
    b.onRequest('int', () => {
      throw Object.assign(new Error('busy'), { code: -33006 });
    });
    b.onRequest('plain', () => {
      throw new Error('boom');
    });
    b.onRequest('other-node', () => {
      throw Object.assign(new Error('x'), { code: 'EBUSY', data: 'raw' });
    });
    const err = await a.request('enoent').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err).toMatchObject({
      rpcCode: -33003,
      nodeCode: 'ENOENT',
      message: 'ENOENT: no such file',
      data: { path: '/x', nodeCode: 'ENOENT' },
    });
    await expect(a.request('int')).rejects.toMatchObject({ rpcCode: -33006, nodeCode: null });
    await expect(a.request('plain')).rejects.toMatchObject({ rpcCode: -32000, nodeCode: null });
    await expect(a.request('other-node')).rejects.toMatchObject({ rpcCode: -32000, nodeCode: undefined, data: 'raw' });
  });

  it('times out with TIMEOUT and sends rpc.cancel, which aborts the remote handler', async () => {
    const { a, b, clock } = pair();
    let aborted = false;
    b.onRequest('slow', (_p, { signal }) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return new Promise(() => {});
    });
    const p = a.request('slow', {}, { timeoutMs: 100 });
    await flush();
    clock.advance(100);
    await expect(p).rejects.toMatchObject({ code: 'ORCA_WIRE_TIMEOUT' });
    await flush();
    expect(aborted).toBe(true);
  });

  it('cancels on abort with CANCELLED and ignores the late response (counted)', async () => {
    const { a, b } = pair();
    let release: (v: unknown) => void = () => {};
    b.onRequest('wait', () => new Promise((r) => (release = r)));
    const controller = new AbortController();
    const p = a.request('wait', {}, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(p).rejects.toMatchObject({ code: 'ORCA_WIRE_CANCELLED' });
    release('late');
    await flush();
    await flush();
    expect(a.stats().lateResponses).toBe(1);
  });

  it('declares the link dead after deadAfterTimeouts consecutive timeouts', async () => {
    const { a, b, clock } = pair({ deadAfterTimeouts: 3 });
    b.onRequest('hang', () => new Promise(() => {}));
    const reasons: LinkError[] = [];
    a.onDispose((r) => reasons.push(r));
    const calls = [
      a.request('hang', {}, { timeoutMs: 10 }),
      a.request('hang', {}, { timeoutMs: 20 }),
      a.request('hang', {}, { timeoutMs: 30 }),
    ];
    const later = a.request('hang', {}, { timeoutMs: 1000 });
    clock.advance(30);
    await Promise.allSettled(calls);
    await expect(later).rejects.toMatchObject({ code: 'ORCA_WIRE_CONNECTION_LOST' });
    expect(reasons.map((r) => r.code)).toEqual(['ORCA_WIRE_CONNECTION_LOST']);
  });

  it('stays alive while idle when the peer acks keepalives', async () => {
    const { a, clock } = pair({ deadAfterMs: 20_000, keepaliveMs: 5_000 });
    for (let i = 0; i < 20; i++) {
      clock.advance(5_000);
      await flush();
    }
    expect(a.disposed).toBe(false);
  });

  it('declares a frozen idle peer dead: silence and the oldest un-acked frame both past deadAfterMs', async () => {
    const { a, clock, cut } = pair({ deadAfterMs: 20_000, keepaliveMs: 5_000 });
    cut.bToA = true;
    const reasons: string[] = [];
    a.onDispose((r) => reasons.push(r.code));
    // Why: checks run on the keepalive tick; the first keepalive (t=6 s) is the oldest un-acked frame,
    // so at t=26 s both ages equal 20 s (not past) and at t=31 s both are past.
    for (let i = 0; i < 5; i++) {
      clock.advance(5_000);
      await flush();
    }
    expect(a.disposed).toBe(false);
    clock.advance(5_000);
    await flush();
    expect(reasons).toEqual(['ORCA_WIRE_CONNECTION_LOST']);
  });

  it('is not dead when the peer is silent but has acked everything (nothing outstanding)', () => {
    const clock = createManualClock(0);
    const ch = createRelayChannel({ policy: 'close', clock, write: () => true, keepaliveMs: 50_000, deadAfterMs: 1 });
    ch.start();
    clock.advance(10_000);
    expect(ch.disposed).toBe(false);
  });

  it('dispose rejects pending with DISPOSED and fires onDispose exactly once', async () => {
    const { a } = pair();
    const seen: string[] = [];
    a.onDispose((r) => seen.push(r.code));
    const p = a.request('never-answered-before-dispose');
    a.dispose();
    a.dispose();
    await expect(p).rejects.toBeInstanceOf(LinkError);
    await expect(p).rejects.toMatchObject({ code: 'ORCA_WIRE_DISPOSED' });
    await expect(a.request('x')).rejects.toMatchObject({ code: 'ORCA_WIRE_DISPOSED' });
    expect(seen).toEqual(['ORCA_WIRE_DISPOSED']);
  });

  it('feeds initialBytes in a microtask ahead of any later receive', async () => {
    const order: string[] = [];
    const ch = createRelayChannel({
      policy: 'close',
      write: () => true,
      initialBytes: regular(1, { jsonrpc: '2.0', method: 'm', params: 'initial' }),
    });
    ch.onNotification('m', (p) => order.push(String(p)));
    ch.receive(regular(2, { jsonrpc: '2.0', method: 'm', params: 'later' }));
    expect(order).toEqual([]);
    await Promise.resolve();
    expect(order).toEqual(['initial', 'later']);
  });

  it('delivers a depth-1,000 payload (no depth limit on relay frames)', async () => {
    const { a, b } = pair();
    let deep: unknown = 0;
    for (let i = 0; i < 1000; i++) deep = [deep];
    b.onRequest('echo', (p) => p);
    await expect(a.request('echo', deep)).resolves.toEqual(deep);
  });

  it('sends nothing before start, and keeps writing (never queues) after a false write until drained', () => {
    const writes: Uint8Array[] = [];
    let accept = false;
    const ch = createRelayChannel({
      policy: 'close',
      write: (b) => {
        writes.push(b);
        return accept;
      },
    });
    ch.notify('before');
    expect(writes).toHaveLength(0);
    ch.start();
    expect(writes).toHaveLength(1);
    expect(ch.writable).toBe(false);
    ch.notify('still-sent');
    expect(writes).toHaveLength(2);
    const drains: number[] = [];
    ch.onDrain(() => drains.push(1));
    accept = true;
    ch.drained();
    expect(ch.writable).toBe(true);
    expect(drains).toEqual([1]);
    ch.dispose();
  });

  it('counts seq from 1 and acks the highest seq received', () => {
    const writes: Uint8Array[] = [];
    const ch = createRelayChannel({
      policy: 'drop',
      write: (b) => {
        writes.push(b);
        return true;
      },
    });
    ch.start();
    ch.receive(regular(41, { jsonrpc: '2.0', method: 'x' }));
    ch.notify('a');
    ch.notify('b');
    const frames = writes.flatMap((w) => new RelayFrameDecoder().push(w).frames);
    expect(frames.map((f) => [f.seq, f.ack])).toEqual([
      [1, 41],
      [2, 41],
    ]);
    ch.dispose();
  });

  it("policy 'drop' counts bad frames and keeps the link; 'close' disposes", () => {
    const bad = [
      encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: enc.encode('{nope') }),
      regular(2, { jsonrpc: '1.0', method: 'x' }),
      regular(3, { jsonrpc: '2.0', id: 1 }),
      encodeHandshake(),
    ];
    const dropping = createRelayChannel({ policy: 'drop', write: () => true });
    for (const b of bad) dropping.receive(b);
    expect(dropping.disposed).toBe(false);
    expect(dropping.stats()).toMatchObject({
      rejected: 3,
      byReason: { 'invalid-json': 1, 'bad-jsonrpc-version': 1, 'invalid-shape': 1 },
      ignoredHandshakes: 1,
    });
    const closing = createRelayChannel({ policy: 'close', write: () => true });
    const reasons: string[] = [];
    closing.onDispose((r) => reasons.push(`${r.code}: ${r.message}`));
    closing.receive(bad[0] ?? new Uint8Array());
    expect(reasons).toEqual(['ORCA_WIRE_CONNECTION_LOST: relay peer sent a bad frame: invalid-json']);
  });

  it('oversize and unknown-type frames: drop counts them, close disposes', () => {
    const big = encodeRelayFrame({ type: 1, seq: 1, ack: 0, payload: new Uint8Array(100) });
    const dropping = createRelayChannel({ policy: 'drop', write: () => true, maxPayloadBytes: 10 });
    dropping.receive(big);
    const unknown = encodeRelayFrame({ type: 9, seq: 2, ack: 0, payload: new Uint8Array(0) });
    unknown[0] = 3;
    dropping.receive(unknown);
    expect(dropping.stats().byReason).toEqual({ oversize: 1, 'unknown-type': 1 });
    expect(dropping.disposed).toBe(false);
    const closing = createRelayChannel({ policy: 'close', write: () => true, maxPayloadBytes: 10 });
    closing.receive(big);
    expect(closing.disposed).toBe(true);
  });
});
