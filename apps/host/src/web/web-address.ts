import { isIP } from 'node:net';
import { printableField } from '@orca/shared/printable';
import { UsageError } from '../errors.ts';

/** Where `orca start --web ADDR:PORT` listens. */
export interface WebAddress {
  /** The address to bind (`127.0.0.1`, `::1`, `0.0.0.0`, …). */
  readonly host: string;
  readonly port: number;
  readonly loopback: boolean;
}

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * Parses `--web`: `IPV4:PORT`, `[IPV6]:PORT` or `localhost:PORT` (port 0 = any). A non-loopback
 * address needs `bindAny` (`--web-bind-any`), else a `UsageError`.
 */
export function parseWebAddress(text: string, bindAny: boolean): WebAddress {
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([0-9.]+|localhost)):(\d{1,5})$/.exec(text);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || host === undefined || port > 65_535 || (host !== 'localhost' && isIP(host) === 0))
    throw new UsageError(`--web expects ADDR:PORT (127.0.0.1:PORT, [::1]:PORT), got ${printableField(text)}`);
  const loopback = isLoopbackHost(host);
  if (!loopback && !bindAny)
    throw new UsageError(
      `--web ${printableField(text)} is not a loopback address; pass --web-bind-any to serve other machines`,
    );
  return { host: host === 'localhost' ? '127.0.0.1' : host, port, loopback };
}
