import {
  WEB_AUTH_ADDRESSES_MAX,
  WEB_AUTH_BACKOFF_MAX_MS,
  WEB_AUTH_BUCKET_PER_S,
  WEB_AUTH_BUCKET_SIZE,
  WEB_AUTH_FREE_FAILURES,
} from '../constants.ts';

/** Limits unauthenticated work: a host-wide token bucket, and backoff per address after failures. */
export interface AuthLimiter {
  /** Whether an attempt from `address` may be checked now (it takes a token when so). */
  allow(address: string): boolean;
  /** The attempt from `address` failed: its backoff grows once its free failures are used. */
  failed(address: string): void;
  /** The attempt from `address` succeeded: its failures are forgotten. */
  succeeded(address: string): void;
}

/**
 * A token bucket of `WEB_AUTH_BUCKET_SIZE` refilled at `WEB_AUTH_BUCKET_PER_S` per second for
 * the whole host, and per address: after `WEB_AUTH_FREE_FAILURES` failures, no attempt for 1 s,
 * doubling per further failure up to `WEB_AUTH_BACKOFF_MAX_MS`.
 *
 * @example
 * const limiter = createAuthLimiter();
 * if (!limiter.allow(req.socket.remoteAddress ?? '')) return refuse(socket, 429);
 */
export function createAuthLimiter(now: () => number = Date.now): AuthLimiter {
  let tokens = WEB_AUTH_BUCKET_SIZE;
  let filledAt = now();
  const addresses = new Map<string, { failures: number; blockedUntil: number }>();
  return {
    allow(address) {
      const at = now();
      tokens = Math.min(WEB_AUTH_BUCKET_SIZE, tokens + ((at - filledAt) / 1000) * WEB_AUTH_BUCKET_PER_S);
      filledAt = at;
      const entry = addresses.get(address);
      if (entry && entry.blockedUntil > at) return false;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    failed(address) {
      const entry = addresses.get(address) ?? { failures: 0, blockedUntil: 0 };
      entry.failures += 1;
      const over = entry.failures - WEB_AUTH_FREE_FAILURES;
      if (over > 0) entry.blockedUntil = now() + Math.min(WEB_AUTH_BACKOFF_MAX_MS, 1000 * 2 ** Math.min(over - 1, 16));
      // Why: re-inserted so the map's order is last-failure order; the stalest address goes first.
      addresses.delete(address);
      addresses.set(address, entry);
      if (addresses.size > WEB_AUTH_ADDRESSES_MAX) {
        const oldest = addresses.keys().next().value;
        if (oldest !== undefined) addresses.delete(oldest);
      }
    },
    succeeded(address) {
      addresses.delete(address);
    },
  };
}
