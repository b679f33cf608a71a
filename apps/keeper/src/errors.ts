/** Stable codes of the keeper's own errors. */
export const KEEPER_ERROR_CODES = [
  'ORCA_KEEPER_ALREADY_RUNNING',
  'ORCA_KEEPER_STATE_DIR',
  'ORCA_KEEPER_LISTEN',
  'ORCA_KEEPER_USAGE',
  'ORCA_KEEPER_CLAIM_LOCKED',
] as const;
/** One of {@link KEEPER_ERROR_CODES}. */
export type KeeperErrorCode = (typeof KEEPER_ERROR_CODES)[number];

/**
 * Codes a keeper answers requests with (JSON-RPC error `data.code`); permanent strings a host of
 * any version matches on.
 */
export const KEEPER_REFUSAL_CODES = [
  'keeper_busy',
  'protocol_mismatch',
  'not_attached',
  'pane_unknown',
  'pane_exists',
  'spawn_failed',
  'bad_params',
] as const;
/** One of {@link KEEPER_REFUSAL_CODES}. */
export type KeeperRefusalCode = (typeof KEEPER_REFUSAL_CODES)[number];

/** The keeper's own failures (a second keeper, a state dir it cannot use). Never crosses the wire. */
export class KeeperError extends Error {
  readonly code: KeeperErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(
    code: KeeperErrorCode,
    message: string,
    options: { cause?: unknown; context?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeeperError';
    this.code = code;
    this.context = options.context ?? {};
  }
}

/** A refused request: its `code` reaches the host (see {@link KEEPER_REFUSAL_CODES}). */
export class KeeperRefusal extends Error {
  readonly code: KeeperRefusalCode;
  constructor(code: KeeperRefusalCode, message: string) {
    super(message);
    this.name = 'KeeperRefusal';
    this.code = code;
  }
}
