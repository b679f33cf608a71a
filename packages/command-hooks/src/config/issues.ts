/** Warning codes of discovery (never errors: the file's other hooks still load). */
export const CONFIG_WARNING_CODES = [
  'unknown-event',
  'unsupported-event',
  'unsupported-hook-type',
  'invalid-matcher',
  'duplicate-hook',
  'managed-hook',
] as const;

/** One of {@link CONFIG_WARNING_CODES}. */
export type ConfigWarningCode = (typeof CONFIG_WARNING_CODES)[number];

/** Error codes of discovery. */
export type ConfigErrorCode = 'ORCA_CMDHOOKS_CONFIG_INVALID' | 'ORCA_CMDHOOKS_CONFIG_UNREADABLE';

/**
 * A problem in a hook config file: which file, where (JSON pointer; line/column when known) and
 * what was expected versus what arrived.
 */
export interface ConfigIssue {
  code: ConfigWarningCode | ConfigErrorCode;
  file: string;
  /** JSON pointer into the file (`""` = the whole file). */
  path: string;
  line?: number;
  column?: number;
  message: string;
}
