import type { HookListener, RelayedEvent } from '@orca/relay/listener';
import type { WaitResult } from '@orca/wire/contract';
import type { AgentVersions } from '../agent-hooks/agent-versions.ts';
import type { HookEndpoint } from '../agent-hooks/endpoint.ts';
import type { AgentInstallReport, InstallHooksOptions } from '../agent-hooks/install-hooks.ts';
import type { HostCommandHooks } from '../command-hooks/command-hooks.ts';
import type { GuestRegistry } from '../guests/guests.ts';
import type { HostNotify } from '../notify/host-notify.ts';
import type { DispatchReceipt } from '../panes/delivery-types.ts';
import type { LivePane } from '../panes/live-pane.ts';
import type { CreatePaneOptions } from '../panes/pane-options.ts';
import type { PaneView } from '../panes/pane-view.ts';
import type { PromptQueue } from '../panes/prompt-queue.ts';
import type { ScreenBacklog } from '../panes/screen-pool.ts';
import type { VerdictChange } from '../panes/verdict-publisher.ts';
import type { DataPaths } from '../runtime/data-dir.ts';
import type { HostLogger } from '../runtime/logger.ts';
import type { HookTimingSink } from '../status/hook-timing.ts';
import type { GcReport, Store } from '../store/store.ts';

/** Options of {@link createHost}. */
export interface HostOptions {
  readonly dataDir: string;
  readonly hookPort?: number;
  /** How hook scripts post (default `raw-json-v1`: the payload as is, metadata in headers; `form`: urlencoded). */
  readonly hookTransport?: 'form' | 'raw-json-v1';
  readonly now?: () => number;
  readonly logger?: HostLogger;
  /** Home whose user-level command hooks run (default the user's home). */
  readonly home?: string;
  /** Base environment of panes (default `process.env`); inherited `ORCA_*` keys are removed. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Worker threads that run the panes' terminal emulators (default: one per core beyond the
   * host's own, at least 1, at most `MAX_DEFAULT_SCREEN_WORKERS`); 0 parses in the host's thread.
   */
  readonly screenWorkers?: number;
  /**
   * Run panes in the data dir's PTY keeper (`orca-keeper`, started if not running), so they outlive
   * this host: a stop or crash leaves them running and the next host takes them over. Default
   * false (PTYs in this process, ended at stop); `orca start` turns it on.
   */
  readonly keeper?: boolean;
  /**
   * Receives, for each hook event of the local listener that reaches a running pane, where its
   * time went on the way to the verdict (listener, store commit, screen settle, evaluation,
   * publish). For the fleet bench and diagnostics; absent, nothing is timed.
   */
  readonly hookTiming?: HookTimingSink;
}

/** Result of {@link Host.wait}: the contract's (`@orca/wire/contract`). */
export type { WaitResult } from '@orca/wire/contract';
export type { CreatePaneOptions } from '../panes/pane-options.ts';
/** A verdict change as published to listeners. */
export type { VerdictChange } from '../panes/verdict-publisher.ts';

/** The running host. */
export interface Host {
  readonly paths: DataPaths;
  readonly store: Store;
  readonly endpoint: HookEndpoint;
  readonly log: HostLogger;
  readonly commandHooks: HostCommandHooks;
  readonly guests: GuestRegistry;
  /**
   * Stops the host. Panes the PTY keeper holds keep running (`panes: 'keep'`, the default) or end
   * with the keeper (`'end'`: `orca stop --all`); panes of this process end either way.
   */
  stop(opts?: { panes?: 'keep' | 'end' }): Promise<void>;
  createPane(opts: CreatePaneOptions): Promise<PaneView>;
  /** The PTY keeper's pid, or null when panes run in this process. */
  keeperPid(): number | null;
  listPanes(): PaneView[];
  showPane(handle: string): PaneView;
  /** Forgets an exited pane and its stored rows; a running pane is refused (`invalid_argument`). */
  removePane(handle: string): void;
  livePane(handle: string): LivePane;
  send(handle: string, text: string): number;
  /** Guarded, verified prompt delivery (see `dispatchPrompt`): resolves only once submitted. */
  dispatchInject(handle: string, prompt: string, opts?: { timeoutMs?: number }): Promise<DispatchReceipt>;
  /** The per-pane prompt queues (durable; delivered in order, each when the agent is ready). */
  readonly queue: PromptQueue;
  /** Verdict transitions explained (`orca status explain`) and the notifications they raise. */
  readonly notify: HostNotify;
  wait(handle: string, mode: 'tui-idle' | 'exit', timeoutMs?: number): Promise<WaitResult>;
  onVerdict(listener: (change: VerdictChange) => void): () => void;
  /** Ingests one event through the trust boundary (the listener, spool and guests all land here). */
  ingest(raw: unknown, connectionId: string): RelayedEvent | null;
  hookStats(): ReturnType<HookListener['stats']>;
  /** Live panes placed on each screen worker (empty when the emulators run in the host thread). */
  screenLoad(): readonly number[];
  /** What each screen worker has still to parse now (empty when the emulators run in the host thread). */
  screenBacklog(): readonly ScreenBacklog[];
  /** Installed agent versions, detected once per start on the panes' PATH. */
  readonly agentVersions: AgentVersions;
  /** Installs managed hooks (default into the user's home), passing the detected versions. */
  installHooks(opts?: Omit<InstallHooksOptions, 'versions'>): Promise<AgentInstallReport[]>;
  /** Compacts the store now (retention, unknown panes; `full`: a VACUUM). Also runs at start and hourly. */
  gc(opts?: { full?: boolean }): GcReport;
}
