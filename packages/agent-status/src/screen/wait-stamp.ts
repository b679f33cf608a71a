import { MATCH_WINDOW_CHARS, WAIT_CHECK_MIN_INTERVAL_MS, WAIT_KEYWORD_CARRY_CHARS } from '../limits.ts';
import { findBlockedSignal } from './blocked-signal.ts';
import { windowFromTail } from './match-window.ts';

/** Result of one append or flush. */
export interface WaitStampResult {
  waitBlockedAt: number | null;
  /** Set when a scan was throttled: call `flush(now)` at or after this time. */
  recheckAt?: number;
}

/** Tracks when the current blocked prompt appeared in one PTY's stream. */
export interface WaitStamp {
  append(chunk: string, now: number): WaitStampResult;
  /** Restored history: sets the baseline without stamping. */
  prime(text: string): void;
  /** Runs a throttled scan, if one is pending. */
  flush(now: number): WaitStampResult;
  /** Process replaced, PTY exit/prune: waitBlockedAt null, baseline cleared. */
  reset(): void;
  readonly waitBlockedAt: number | null;
}

// Heads of the §5 rules: a chunk holding one scans at once, throttle or not.
const KEYWORD_HEAD =
  /update available|press enter|press t to|enter continue|· esc|do you trust|trust this|trusted workspace|permission|run this command|do you want to|hooks need review|working directory|just got an upgrade|\(esc or n\)|conversation interrupted/;

/**
 * Create the wait stamp of one PTY (§5.4): `waitBlockedAt` moves to `now` exactly when a blocked
 * prompt appears (or reappears later in the stream). Pure: the caller passes `now`.
 *
 * @example
 * const stamp = createWaitStamp();
 * stamp.append('Update available!\r\nPress enter to continue\r\n', 1000); // { waitBlockedAt: 1000 }
 */
export function createWaitStamp(): WaitStamp {
  let buffer = '';
  let bufferStart = 0; // absolute stream offset of buffer[0]
  let baseline: number | null = null; // absolute offset of the last scan's signal
  let waitBlockedAt: number | null = null;
  let lastScanAt: number | null = null;
  let pending = false;
  let carry = '';

  function feed(chunk: string): void {
    buffer += chunk;
    if (buffer.length > MATCH_WINDOW_CHARS) {
      const cut = buffer.length - MATCH_WINDOW_CHARS;
      buffer = buffer.slice(cut);
      bufferStart += cut;
    }
  }

  function scanOffset(): number | null {
    const signal = findBlockedSignal(windowFromTail(buffer));
    return signal ? bufferStart + signal.startOffset : null;
  }

  function scan(now: number): void {
    pending = false;
    lastScanAt = now;
    const found = scanOffset();
    if (found !== null && (baseline === null || found > baseline)) waitBlockedAt = now;
    baseline = found;
  }

  function result(): WaitStampResult {
    if (pending && lastScanAt !== null) {
      return { waitBlockedAt, recheckAt: lastScanAt + WAIT_CHECK_MIN_INTERVAL_MS };
    }
    return { waitBlockedAt };
  }

  return {
    append(chunk, now) {
      feed(chunk);
      const lower = chunk.toLowerCase();
      const keyword = KEYWORD_HEAD.test(carry + lower);
      carry = (carry + lower).slice(-WAIT_KEYWORD_CARRY_CHARS);
      if (keyword || lastScanAt === null || now - lastScanAt >= WAIT_CHECK_MIN_INTERVAL_MS) scan(now);
      else pending = true;
      return result();
    },
    prime(text) {
      feed(text);
      carry = text.toLowerCase().slice(-WAIT_KEYWORD_CARRY_CHARS);
      baseline = scanOffset();
      pending = false;
    },
    flush(now) {
      if (pending) scan(now);
      return result();
    },
    reset() {
      bufferStart += buffer.length;
      buffer = '';
      carry = '';
      baseline = null;
      waitBlockedAt = null;
      pending = false;
    },
    get waitBlockedAt() {
      return waitBlockedAt;
    },
  };
}
