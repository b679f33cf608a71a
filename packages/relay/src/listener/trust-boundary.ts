import { isHookSource } from './sources.ts';
import type { BodyDropReason, RelayedEvent } from './types.ts';
import { validateHookBody } from './validate.ts';

const MAX_SKEW_MS = 60 * 60_000;

/** Why the host trust boundary dropped a relayed envelope. */
export type RelayedDropReason = BodyDropReason | 'envelope' | 'source' | 'connection';

/**
 * Host trust boundary: re-validate a relayed `agent.hook` envelope, stamp `connectionId` and
 * re-base `receivedAt` on the host clock (skew-proof). Returns a fresh object with known keys
 * only; never mutates or trusts `raw`.
 *
 * @example
 * const r = acceptRelayed(params, 'netns:dev', clock);
 * if (!('drop' in r)) ingest(r);
 */
export function acceptRelayed(
  raw: unknown,
  connectionId: string,
  clock: { now(): number },
): RelayedEvent | { drop: RelayedDropReason } {
  if (typeof connectionId !== 'string' || connectionId.trim() === '') return { drop: 'connection' };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { drop: 'envelope' };
  const proto = Object.getPrototypeOf(raw) as unknown;
  if (proto !== Object.prototype && proto !== null) return { drop: 'envelope' };
  const r = raw as Record<string, unknown>;
  const source = r.source;
  if (!isHookSource(source)) return { drop: 'source' };
  const valid = validateHookBody(r);
  if (!valid.ok) return { drop: valid.reason };
  const hostNow = clock.now();
  const sentAt = r.sentAt;
  const receivedAt = r.receivedAt;
  let at = hostNow;
  if (
    typeof sentAt === 'number' &&
    Number.isFinite(sentAt) &&
    typeof receivedAt === 'number' &&
    Number.isFinite(receivedAt)
  ) {
    at = hostNow - Math.min(Math.max(sentAt - receivedAt, 0), MAX_SKEW_MS);
  }
  const out: RelayedEvent = { source, ...valid.event, receivedAt: at, connectionId };
  if (r.isReplay === true) out.isReplay = true;
  return out;
}
