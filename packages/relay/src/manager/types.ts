import type { Readable, Writable } from 'node:stream';

/** How to start one process (argv-only; never through a shell on the host). */
export interface SpawnSpec {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Bytes written to the child's stdin first (ssh: the secrets line). */
  preamble?: string;
  windowsHide?: boolean;
}

/** Why a startup attempt failed before the link came up. */
export interface StartupFailure {
  kind: 'exit' | 'timeout' | 'overflow' | 'version' | 'spawn-error';
  /** Exit code for `exit` (null when killed by a signal). */
  code?: number | null;
  /** Errno of a spawn error (`ENOENT`, …). */
  errno?: string;
  /** Protocol version found in the sentinel, for `version`. */
  version?: string;
  /** Last 64 KiB of stderr, NULs removed. */
  stderrTail: string;
}

/** The subset of a child process the manager uses (node's `ChildProcess` fits). */
export interface ChildLike {
  readonly pid?: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  kill(signal?: NodeJS.Signals | number): boolean;
  on(event: 'close', cb: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', cb: (err: Error) => void): this;
}

/** Injected spawn: `(file, args, options) → child` with piped stdio. */
export type SpawnFn = (
  file: string,
  args: readonly string[],
  options: {
    env: Record<string, string | undefined>;
    cwd?: string;
    windowsHide?: boolean;
    stdio: ['pipe', 'pipe', 'pipe'];
  },
) => ChildLike;

/** A guest kind's plug-in: how to reach, install and start relays of that kind. */
export interface GuestSpawner {
  readonly kind: string;
  /** Normalised key of a target (throws `ORCA_RELAY_BAD_OPTIONS` when invalid). */
  key(target: string): string;
  connectionId(target: string): string;
  /** The token the guest's listener expects. */
  token(target: string, hostToken: string): string;
  launch(target: string, env: Record<string, string>): SpawnSpec;
  install(target: string): SpawnSpec;
  classify(failure: StartupFailure): 'transient' | 'unavailable' | 'other';
  isRunning(target: string): Promise<boolean>;
}

/** Phase of one guest. */
export type GuestPhase = 'starting' | 'running' | 'failed' | 'inactive';

/** What callers see of a guest. */
export interface GuestView {
  kind: string;
  target: string;
  connectionId: string;
  phase: GuestPhase;
  failures: number;
  cooldownUntil?: number;
  lastError?: string;
}

/** A connected guest as handed to `onConnect`. */
export interface GuestHandle extends GuestView {
  home: string;
  endpointPath: string;
  boundPort: number;
  portFallback: boolean;
  token: string;
  pid: number | undefined;
  /** Typed `guestfs.*` calls; failures come back as data. */
  fs: GuestFs;
  request(method: string, params?: unknown): Promise<unknown>;
}

/** Typed fs bridge of a guest. */
export interface GuestFs {
  readFile(path: string): Promise<unknown>;
  writeFile(path: string, content: string, mode?: number): Promise<unknown>;
  stat(path: string): Promise<unknown>;
  rename(src: string, dst: string): Promise<unknown>;
  unlink(path: string): Promise<unknown>;
  mkdir(path: string): Promise<unknown>;
  chmod(path: string, mode: number): Promise<unknown>;
  readdir(path: string): Promise<unknown>;
}

/**
 * The host's ingest, its single trust boundary: the manager hands it the raw `agent.hook` params a
 * guest sent, untouched, plus the guest's connectionId; the host re-validates them
 * (`acceptRelayed`) and stamps the connectionId. The answer only feeds the manager's `stats()`:
 * `{ drop: reason }` counts as dropped by that reason, `null` or `false` as dropped `refused`,
 * anything else (an accepted event, `undefined`) as ingested.
 *
 * @example
 * const ingest: IngestFn = (params, connectionId) => hookIngest.ingest(params, connectionId);
 */
export type IngestFn = (params: unknown, connectionId: string) => unknown;
