import { posix } from 'node:path';

const INSTANCE_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The restart-stable instance key of a guest relay: `ORCA_GUEST_INSTANCE` trimmed and lowercased
 * if it matches `^[a-z0-9][a-z0-9-]{0,63}$`, else `port<PORT>`.
 *
 * @example
 * sanitizeInstanceKey(' Host-A ', 4711) // 'host-a'
 */
export function sanitizeInstanceKey(raw: string | undefined, port: number | string): string {
  const k = (raw ?? '').trim().toLowerCase();
  return INSTANCE_RE.test(k) ? k : `port${port}`;
}

/** Paths a guest relay uses under `home`. */
export interface GuestPaths {
  home: string;
  endpointDir: string;
  endpointPath: string;
  relayDir: string;
  launchPath: string;
}

/**
 * Guest paths: the endpoint file under `~/.orca-guest/agent-hooks/instance-<key>/` (never
 * port-keyed) and the relay install under `~/.orca-guest/relay/<version>/`.
 */
export function guestPaths(home: string, instanceKey: string, version: string): GuestPaths {
  const h = home.length > 1 ? home.replace(/\/+$/, '') : home;
  const endpointDir = posix.join(h, '.orca-guest', 'agent-hooks', `instance-${instanceKey}`);
  const relayDir = posix.join(h, '.orca-guest', 'relay', version);
  return {
    home: h,
    endpointDir,
    endpointPath: posix.join(endpointDir, 'endpoint.env'),
    relayDir,
    launchPath: posix.join(relayDir, 'launch.sh'),
  };
}
