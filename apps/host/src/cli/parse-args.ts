import { printableField } from '@orca/shared/printable';
import { WAIT_TIMEOUT_MAX_MS } from '../constants.ts';
import { UsageError } from './output.ts';

/** `--timeout` seconds (> 0, fractions allowed) as ms. */
export function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > WAIT_TIMEOUT_MAX_MS)
    throw new UsageError(
      `--timeout expects seconds > 0 and at most ${WAIT_TIMEOUT_MAX_MS / 1000}, got ${printableField(value)}`,
    );
  return Math.round(seconds * 1000);
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration as ms: a number with an optional unit, `ms`, `s` (the default), `m`, `h` or `d`.
 *
 * @example
 * parseDuration('10m', '--expires'); // 600000
 * parseDuration('90', '--expires'); // 90000
 */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? 's'] ?? 1_000) : Number.NaN;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new UsageError(`${flag} expects a duration such as 90s, 10m, 2h or 1d, got ${printableField(value)}`);
  }
  return Math.round(ms);
}

/** A whole number ≥ 1 (a queue item id or a position). */
export function parsePositiveInt(what: string): (value: string) => number {
  return (value) => {
    if (!/^\d{1,15}$/.test(value) || Number(value) < 1)
      throw new UsageError(`${what} expects a whole number ≥ 1, got ${printableField(value)}`);
    return Number(value);
  };
}
