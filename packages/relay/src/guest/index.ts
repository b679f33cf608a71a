/**
 * `@orca/relay/guest`: the relay that runs inside a guest (bin `orca-relay`), its bundle, the
 * install script and `launch.sh`.
 *
 * @example
 * import { runGuestRelay } from '@orca/relay/guest';
 * const relay = runGuestRelay({ env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * process.exitCode = await relay.exited;
 */
export { RELAY_ERROR_CODES, RelayError } from '../errors.ts';
export {
  GUESTFS_METHODS,
  type GuestFsMethod,
  RELAY_EXIT_CODES,
  RELAY_METHODS,
  type RelayExitCode,
  type RelayMethod,
} from '../protocol.ts';
export { GUEST_BUNDLE_FILE, guestBundle } from './bundle.ts';
export { SupersedingQueue } from './event-queue.ts';
export { createFsBridge, type FsBridgeOptions, type FsFailure, type FsResult } from './fs-bridge.ts';
export { type GuestPaths, guestPaths, sanitizeInstanceKey } from './paths.ts';
export { mainRelayProcess } from './process-main.ts';
export { ReplayCache } from './replay-cache.ts';
export { type GuestRelay, type GuestRelayOptions, type GuestRelayStats, runGuestRelay } from './run-guest-relay.ts';
export { assertRelayVersion, buildInstallScript, buildLaunchScript, launchLine } from './scripts.ts';
export { currentRelayVersion, relayPackageVersion, relayVersion } from './version.ts';
