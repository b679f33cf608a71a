/**
 * `@orca/keeper`: the small long-lived process that holds an orca data dir's PTYs, so the host can
 * stop, crash or be replaced while agents keep running. See README.md for the protocol.
 *
 * @example
 * import { startKeeper } from '@orca/keeper';
 * const keeper = await startKeeper({ stateDir: '/d/keeper', socket: '/d/keeper/keeper.sock' });
 */

export { withClaimLock } from './claim-lock.ts';
export {
  ATTACH_PAGE_CHARS,
  EXITED_KEPT_MAX,
  EXITED_RING_MAX_CHARS,
  KEEPER_CAPABILITIES,
  KEEPER_DEAD_AFTER_MS,
  KEEPER_IDLE_EXIT_MS,
  KEEPER_KEEPALIVE_MS,
  KEEPER_MAX_CONNECTIONS,
  KEEPER_MAX_PAYLOAD_BYTES,
  KEEPER_PROTOCOL_VERSION,
  KEEPER_REQUEST_TIMEOUT_MS,
  KEEPER_VERSION,
  RING_MAX_CHARS,
  WRITE_CHUNK_CHARS,
} from './constants.ts';
export {
  KEEPER_ERROR_CODES,
  KEEPER_REFUSAL_CODES,
  KeeperError,
  type KeeperErrorCode,
  KeeperRefusal,
  type KeeperRefusalCode,
} from './errors.ts';
export { type KeeperInfo, keeperAlive, pidAlive, processStartTime, readKeeperInfo } from './keeper-claim.ts';
export { connectKeeper, KeeperCallError, type KeeperClient } from './keeper-client.ts';
export { keeperCommand } from './keeper-command.ts';
export { type Keeper, type KeeperOptions, startKeeper } from './keeper-server.ts';
export { KEPT_EXITS_FILE, readKeptExits, removeKeptExits } from './kept-exits.ts';
export type { KeptExit, KeptPaneInfo, KeptPaneSpec } from './kept-pane.ts';
export { OutputRing, type RingSlice } from './output-ring.ts';
export { type AttachResult, KEEPER_EVENTS, KEEPER_METHODS, type KeeperWelcome } from './protocol.ts';
export { ModeTracker, modesReplay, TRACKED_MODES } from './terminal-modes.ts';
