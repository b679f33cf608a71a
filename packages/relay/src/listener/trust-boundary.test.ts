import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PANE } from '../../test/helpers/fixtures.ts';
import { acceptRelayed } from './trust-boundary.ts';

const clock = { now: () => 1_000_000 };
const base = {
  source: 'claude',
  paneKey: PANE,
  payload: { hook_event_name: 'Stop' },
  receivedAt: 500,
  sentAt: 700,
  connectionId: null,
};

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

describe('acceptRelayed', () => {
  it('returns a fresh canonical object, re-based on the host clock, from deep-frozen input', () => {
    const raw = deepFreeze({ ...base, extra: 'x', isReplay: true, tabId: ' tab-1 ' });
    expect(acceptRelayed(raw, 'netns:dev', clock)).toEqual({
      source: 'claude',
      paneKey: PANE,
      tabId: 'tab-1',
      hookEventName: 'Stop',
      payload: { hook_event_name: 'Stop' },
      receivedAt: 1_000_000 - 200,
      connectionId: 'netns:dev',
      isReplay: true,
    });
  });
  it('clamps skew to [0, 1 h] and falls back to hostNow', () => {
    const at = (sentAt: unknown, receivedAt: unknown) => {
      const r = acceptRelayed({ ...base, sentAt, receivedAt }, 'local', clock);
      return 'drop' in r ? undefined : r.receivedAt;
    };
    expect(at(100, 500)).toBe(1_000_000);
    expect(at(10 * 3_600_000, 0)).toBe(1_000_000 - 3_600_000);
    expect(at(Number.NaN, 0)).toBe(1_000_000);
    expect(at('5', 0)).toBe(1_000_000);
    expect(at(undefined, undefined)).toBe(1_000_000);
  });
  it('keeps isReplay only when === true', () => {
    for (const v of [1, 'true', false, null, {}]) {
      const r = acceptRelayed({ ...base, isReplay: v }, 'local', clock);
      expect('isReplay' in r).toBe(false);
    }
  });
  it('drops bad envelopes', () => {
    expect(acceptRelayed({ ...base, source: 'nope' }, 'local', clock)).toEqual({ drop: 'source' });
    expect(acceptRelayed({ ...base, paneKey: 'x' }, 'local', clock)).toEqual({ drop: 'pane-key' });
    expect(acceptRelayed({ ...base, payload: 3 }, 'local', clock)).toEqual({ drop: 'payload' });
    expect(acceptRelayed([base], 'local', clock)).toEqual({ drop: 'envelope' });
    expect(acceptRelayed(base, ' ', clock)).toEqual({ drop: 'connection' });
    expect(acceptRelayed(new (class X {})(), 'local', clock)).toEqual({ drop: 'envelope' });
  });
  it('mutated envelopes are dropped or canonical (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'source',
            'paneKey',
            'tabId',
            'payload',
            'env',
            'grokHome',
            'isReplay',
            'sentAt',
            '__proto__',
            'x',
          ),
          fc.anything(),
        ),
        (patch) => {
          const raw = { ...base, ...patch };
          const r = acceptRelayed(raw, 'ssh:h', clock);
          if ('drop' in r) return true;
          const allowed = [
            'source',
            'paneKey',
            'tabId',
            'worktreeId',
            'launchToken',
            'env',
            'version',
            'hookEventName',
            'grokHome',
            'payload',
            'receivedAt',
            'connectionId',
            'isReplay',
          ];
          return (
            Object.keys(r).every((k) => allowed.includes(k)) &&
            r.connectionId === 'ssh:h' &&
            (r.isReplay === undefined || r.isReplay === true)
          );
        },
      ),
    );
  });
});
