import { describe, expect, it } from 'vitest';
import type { ForegroundProbe } from '../types.ts';
import { createProbeGate, type Delay } from './probe-gate.ts';

/** A manual clock for the gate's bound: `fire()` elapses every pending delay. */
function manualDelay() {
  const pending = new Set<() => void>();
  let cancelled = 0;
  const delay: Delay = (_ms, signal) =>
    new Promise<void>((resolve) => {
      const fire = () => {
        pending.delete(fire);
        resolve();
      };
      pending.add(fire);
      signal.addEventListener('abort', () => {
        if (pending.delete(fire)) cancelled++;
      });
    });
  return {
    delay,
    fire: () => {
      for (const f of [...pending]) f();
    },
    get pending() {
      return pending.size;
    },
    get cancelled() {
      return cancelled;
    },
  };
}

function deferredProbe() {
  let reads = 0;
  let resolve: (v: string | null) => void = () => {};
  let reject: (e: Error) => void = () => {};
  const probe: ForegroundProbe = {
    read: () => {
      reads++;
      return new Promise<string | null>((res, rej) => {
        resolve = res;
        reject = rej;
      });
    },
  };
  return {
    probe,
    get reads() {
      return reads;
    },
    resolve: (v: string | null) => resolve(v),
    reject: (e: Error) => reject(e),
  };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('createProbeGate', () => {
  it('concurrent callers share one probe', async () => {
    const clock = manualDelay();
    const gate = createProbeGate({ timeoutMs: 2000, delay: clock.delay });
    const p = deferredProbe();
    const a = gate.run('pty', p.probe);
    const b = gate.run('pty', p.probe);
    await flush();
    p.resolve('codex');
    expect(await Promise.all([a, b])).toEqual([
      { cheap: 'codex', confirmed: null },
      { cheap: 'codex', confirmed: null },
    ]);
    expect(p.reads).toBe(1);
    expect(clock.pending).toBe(0);
    expect(clock.cancelled).toBe(2);
    expect(gate.inFlight).toBe(0);
  });

  it("a timeout answers 'timeout'; the next caller joins the still-running probe", async () => {
    const clock = manualDelay();
    const gate = createProbeGate({ timeoutMs: 2000, delay: clock.delay });
    const p = deferredProbe();
    const first = gate.run('pty', p.probe);
    await flush();
    clock.fire();
    expect(await first).toBe('timeout');
    expect(gate.inFlight).toBe(1);
    const second = gate.run('pty', p.probe);
    await flush();
    expect(p.reads).toBe(1);
    p.resolve('bash');
    expect(await second).toEqual({ cheap: 'bash', confirmed: null });
    expect(gate.inFlight).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('a rejection rejects the callers and clears the slot', async () => {
    const clock = manualDelay();
    const gate = createProbeGate({ timeoutMs: 2000, delay: clock.delay });
    const p = deferredProbe();
    const a = gate.run('pty', p.probe);
    await flush();
    p.reject(new Error('EIO'));
    await expect(a).rejects.toThrow('EIO');
    expect(gate.inFlight).toBe(0);
    const q = deferredProbe();
    const b = gate.run('pty', q.probe);
    await flush();
    q.resolve('zsh');
    expect(await b).toEqual({ cheap: 'zsh', confirmed: null });
    expect(clock.pending).toBe(0);
  });

  it('the bound covers read + confirm; a throwing confirmer confirms nothing', async () => {
    const gate = createProbeGate({ timeoutMs: 2000, delay: manualDelay().delay });
    expect(await gate.run('a', { read: async () => 'bash', confirm: async () => 'claude' })).toEqual({
      cheap: 'bash',
      confirmed: 'claude',
    });
    expect(
      await gate.run('b', {
        read: async () => 'bash',
        confirm: async () => {
          throw new Error('gone');
        },
      }),
    ).toEqual({ cheap: 'bash', confirmed: null });
  });

  it('different PTYs probe independently', async () => {
    const gate = createProbeGate({ timeoutMs: 2000, delay: manualDelay().delay });
    const reads: string[] = [];
    const probe = (id: string): ForegroundProbe => ({
      read: async () => {
        reads.push(id);
        return id;
      },
    });
    await Promise.all([gate.run('1', probe('1')), gate.run('2', probe('2'))]);
    expect(reads.sort()).toEqual(['1', '2']);
  });

  it('the default delay leaves no timer behind once the probe settles', async () => {
    const gate = createProbeGate({ timeoutMs: 60_000 });
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await gate.run('x', { read: async () => 'codex' });
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});
