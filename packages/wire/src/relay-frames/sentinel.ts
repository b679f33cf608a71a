import { RELAY_PROTOCOL_VERSION } from '../compat/versions.ts';
import { RELAY_LIMITS } from '../limits.ts';

const PREFIX = 'ORCA-RELAY v';
const SUFFIX = ' READY';
const MAX_VERSION_CHARS = 64;
const PREFIX_BYTES = new TextEncoder().encode(PREFIX);
const SUFFIX_BYTES = new TextEncoder().encode(SUFFIX);
const MAX_SENTINEL_BYTES = PREFIX.length + MAX_VERSION_CHARS + SUFFIX.length + 2;

/**
 * The raw line a relay prints before any frame: `ORCA-RELAY v<version> READY\n`.
 *
 * @example
 * process.stdout.write(relaySentinel()); // "ORCA-RELAY v0.1.0 READY\n"
 */
export function relaySentinel(version: string = RELAY_PROTOCOL_VERSION): string {
  return `${PREFIX}${version}${SUFFIX}\n`;
}

/** What {@link SentinelScanner.push} reports. */
export type SentinelScan =
  | { kind: 'waiting' }
  /** `rest` holds the bytes after the sentinel (feed them to the channel first). */
  | { kind: 'found'; version: string; rest: Uint8Array }
  | { kind: 'overflow'; bytesBeforeSentinel: number };

function isVersionByte(b: number): boolean {
  // [0-9A-Za-z.+-]
  return (
    (b >= 0x30 && b <= 0x39) ||
    (b >= 0x41 && b <= 0x5a) ||
    (b >= 0x61 && b <= 0x7a) ||
    b === 0x2e ||
    b === 0x2b ||
    b === 0x2d
  );
}

type Match = { kind: 'no' } | { kind: 'partial' } | { kind: 'yes'; version: string; end: number };

function matchAt(buf: Uint8Array, at: number): Match {
  let i = at;
  for (const b of PREFIX_BYTES) {
    if (i >= buf.length) return { kind: 'partial' };
    if (buf[i] !== b) return { kind: 'no' };
    i++;
  }
  const versionStart = i;
  while (i < buf.length && isVersionByte(buf[i] ?? 0)) {
    i++;
    if (i - versionStart > MAX_VERSION_CHARS) return { kind: 'no' };
  }
  if (i >= buf.length) return { kind: 'partial' };
  if (i === versionStart) return { kind: 'no' };
  const version = new TextDecoder().decode(buf.subarray(versionStart, i));
  for (const b of SUFFIX_BYTES) {
    if (i >= buf.length) return { kind: 'partial' };
    if (buf[i] !== b) return { kind: 'no' };
    i++;
  }
  if (i >= buf.length) return { kind: 'partial' };
  if (buf[i] === 0x0a) return { kind: 'yes', version, end: i + 1 };
  if (buf[i] === 0x0d) {
    if (i + 1 >= buf.length) return { kind: 'partial' };
    if (buf[i + 1] === 0x0a) return { kind: 'yes', version, end: i + 2 };
  }
  return { kind: 'no' };
}

/**
 * Finds the relay sentinel in a byte stream split anywhere, ignoring garbage before it (shell rc
 * output), tolerating `\r\n`. It keeps only a short tail between pushes (no re-scan) and reports
 * `overflow` once more than {@link RELAY_LIMITS.maxBytesBeforeSentinel} bytes precede the sentinel.
 * The timeout and the version check are the caller's. Never throws.
 *
 * @example
 * const scanner = new SentinelScanner();
 * const r = scanner.push(chunk);
 * if (r.kind === 'found') channel.receive(r.rest);
 */
export class SentinelScanner {
  #tail: Uint8Array = new Uint8Array(0);
  /** Bytes pushed so far. */
  #pushed = 0;
  #state: SentinelScan = { kind: 'waiting' };

  /** Feeds bytes; after `found`, every later chunk is returned whole as `rest`. */
  push(chunk: Uint8Array): SentinelScan {
    if (this.#state.kind === 'overflow') return this.#state;
    if (this.#state.kind === 'found') return { kind: 'found', version: this.#state.version, rest: chunk };
    const buf = this.#tail.length === 0 ? chunk : concat(this.#tail, chunk);
    const bufOffset = this.#pushed - this.#tail.length;
    this.#pushed += chunk.length;
    let from = 0;
    // Why: every possible start of the sentinel is a `partial` match below, so nothing else is kept.
    let keepFrom = buf.length;
    for (;;) {
      const at = buf.indexOf(0x4f, from); // 'O'
      if (at < 0) break;
      const match = matchAt(buf, at);
      if (match.kind === 'no') {
        from = at + 1;
        continue;
      }
      if (match.kind === 'partial') {
        keepFrom = Math.min(keepFrom, at);
        break;
      }
      const before = bufOffset + at;
      if (before > RELAY_LIMITS.maxBytesBeforeSentinel) {
        this.#state = { kind: 'overflow', bytesBeforeSentinel: before };
        return this.#state;
      }
      this.#state = { kind: 'found', version: match.version, rest: new Uint8Array(0) };
      this.#tail = new Uint8Array(0);
      return { kind: 'found', version: match.version, rest: buf.slice(match.end) };
    }
    this.#tail = buf.slice(Math.max(keepFrom, buf.length - MAX_SENTINEL_BYTES));
    const before = this.#pushed - this.#tail.length;
    if (before > RELAY_LIMITS.maxBytesBeforeSentinel) {
      this.#state = { kind: 'overflow', bytesBeforeSentinel: before };
      return this.#state;
    }
    return { kind: 'waiting' };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
