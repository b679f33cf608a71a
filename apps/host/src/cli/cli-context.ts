import type { CliIo } from './output.ts';

/** Global options every command accepts. */
export interface GlobalOptions {
  json?: boolean;
  dataDir?: string;
  debug?: boolean;
  /** `ws://127.0.0.1:PORT` of a host started with `--listen`. */
  remote?: string;
  /** File holding that host's bearer token (else `$ORCA_RUNTIME_TOKEN`). */
  tokenFile?: string;
}

/** What every command group gets: where to print, where to put the exit code, the parsed globals. */
export interface CliContext {
  readonly io: CliIo;
  /** Actions store their exit code here (0 ok, 1 refused, 2 usage). */
  readonly state: { exit: number };
  /** The global options as parsed for this run (read them inside actions, after parsing). */
  readonly globals: () => GlobalOptions;
}
