/**
 * `@orca/relay/manager`: the host-side guest manager and the guest spawners (netns, ssh, wsl).
 *
 * @example
 * import { createRelayManager, netnsSpawner } from '@orca/relay/manager';
 * import { guestBundle } from '@orca/relay/guest';
 * const m = createRelayManager({ spawners: [netnsSpawner({ holderPid })], bundle: guestBundle(),
 *   hostPort: () => port, hostToken: () => token, instanceKey, ingest });
 * await m.ensure('netns', 'dev');
 */
export { RELAY_ERROR_CODES, RelayError } from '../errors.ts';
export { GUESTFS_METHODS, RELAY_EXIT_CODES, RELAY_METHODS } from '../protocol.ts';
export { type NetnsHolder, netnsSupport, startNetnsHolder } from './netns.ts';
export { createRelayManager, type RelayManager, type RelayManagerOptions } from './relay-manager.ts';
export {
  enterArgv,
  mergeWslenv,
  NETNS_READY_LINE,
  type NetnsSpawnerOptions,
  netnsHolderArgv,
  netnsSpawner,
  type SshSpawnerOptions,
  sshDestination,
  sshSpawner,
  type WslSpawnerOptions,
  wslSpawner,
} from './spawners.ts';
export { StderrTail } from './startup.ts';
export type {
  ChildLike,
  GuestFs,
  GuestHandle,
  GuestPhase,
  GuestSpawner,
  GuestView,
  IngestFn,
  SpawnFn,
  SpawnSpec,
  StartupFailure,
} from './types.ts';
