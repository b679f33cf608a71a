declare const __ORCA_PKG_VERSION__: string | undefined;

/** This keeper's version (inlined by the shared tsup preset; `source` when run from `src/`). */
export const KEEPER_VERSION: string = typeof __ORCA_PKG_VERSION__ === 'string' ? __ORCA_PKG_VERSION__ : 'source';

/**
 * The keeper protocol's version. A host speaks to a keeper only when both have the same number;
 * a new field is optional, a new method is behind a capability, so the number changes only on a
 * break. Never reused.
 */
export const KEEPER_PROTOCOL_VERSION = 1;

/** What this keeper offers (`area.feature.vN`); a host checks the ones it uses. */
export const KEEPER_CAPABILITIES = [
  'pty.spawn.v1',
  'pty.ring.v1',
  'pty.modes.v1',
  'pty.flow.v1',
  'keeper.stop.v1',
  'pty.attach.pages.v1',
] as const;

/** Output kept per pane for a host that reattaches (UTF-16 units); older output is dropped first. */
export const RING_MAX_CHARS = 2 * 1024 * 1024;

/**
 * Output per `pty.attach` answer a host asks for (UTF-16 units). Why: JSON may spend 6 bytes on a
 * control character and UTF-8 3 on a box-drawing one, so a whole 2 Mi ring can pass the 8 MiB frame
 * limit; a page of 256 Ki stays under 1.5 MiB.
 */
export const ATTACH_PAGE_CHARS = 256 * 1024;
/** The smallest page a keeper serves (UTF-16 units). */
export const ATTACH_PAGE_MIN_CHARS = 1024;
/** Text per `pty.write` notification (UTF-16 units): a long paste goes as several, in order. */
export const WRITE_CHUNK_CHARS = 256 * 1024;

/** Output kept for an ended pane (UTF-16 units): enough for its last screen. */
export const EXITED_RING_MAX_CHARS = 64 * 1024;
/** Connections the keeper serves at once (a host link, a replacing one, a few probes). */
export const KEEPER_MAX_CONNECTIONS = 16;

/** Bytes of pane descriptions a welcome carries before it leaves their arguments out (under the 8 MiB frame). */
export const WELCOME_MAX_BYTES = 4 * 1024 * 1024;

/** A keeper with no live pane and no host exits after this long (ms). */
export const KEEPER_IDLE_EXIT_MS = 30_000;

/** Exited panes a keeper remembers for a host that was away when they ended (panes). */
export const EXITED_KEPT_MAX = 1_000;

/** How long a process waits for another to finish replacing a stale claim file (ms). */
export const CLAIM_LOCK_WAIT_MS = 2_000;
/** A claim lock with no readable holder is stale after this long (ms). */
export const CLAIM_LOCK_STALE_MS = 2_000;

/** Mode of the keeper's state directory (`<data-dir>/keeper`). */
export const KEEPER_DIR_MODE = 0o700;
/** Mode of every file and of the socket the keeper creates. */
export const KEEPER_FILE_MODE = 0o600;

/** Largest frame the keeper takes from its host (bytes): a spawn's env or a pasted prompt fits. */
export const KEEPER_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** How long a host waits for a keeper to answer one request (ms). */
export const KEEPER_REQUEST_TIMEOUT_MS = 15_000;
/** Keepalive interval on the keeper link (ms); a link silent for {@link KEEPER_DEAD_AFTER_MS} is dead. */
export const KEEPER_KEEPALIVE_MS = 2_000;
/** See {@link KEEPER_KEEPALIVE_MS} (ms). */
export const KEEPER_DEAD_AFTER_MS = 10_000;
/** How long a link its owner closed may take to flush what it wrote last before it is cut. */
export const KEEPER_CLOSE_FLUSH_MS = 2_000;
