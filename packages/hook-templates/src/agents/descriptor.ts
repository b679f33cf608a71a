import type { AgentId, HookSource } from './sources.ts';

/** How a script writes its agent-protocol line before capture. */
export type ProtocolOutput =
  | { fixed: string }
  | { byEnv: string; table: Readonly<Record<string, string>>; default: string }
  | { fromEnv: string; default: string };

/** How stdin is captured. */
export type CapturePolicy = 'required' | 'emptyAsObject' | 'firstJsonValue';

/** An env var that, when non-empty, makes the script a no-op. */
export interface SkipRule {
  env: string;
  /** The caller may keep stdin open while this is set (Windows: exit unread). */
  holdsStdin: boolean;
}

/** An extra form field posted from an env var. */
export interface ExtraField {
  field: string;
  env: string;
  maxLen?: number;
}

/** Shape of an agent's config file (drives the pure installer). */
export type ConfigShape =
  | 'claude'
  | 'codex'
  | 'gemini'
  | 'antigravity'
  | 'cursor'
  | 'devin'
  | 'grok'
  | 'copilot'
  /** No hook config: a generated plugin file (opencode's `plugins/` folder) runs the script. */
  | 'opencode-plugin';

/** Per-event launcher environment (the vendor event name or a JSON answer). */
export interface LauncherEnvRule {
  env: string;
  /** Value for an event; `undefined` ⇒ the event name itself. */
  valueFor?: (event: string) => string;
}

/**
 * Agent home overrides honoured by the installers (only when the caller passes them): the
 * variables of every descriptor's `configEnv`, e.g. `CODEX_HOME`.
 */
export type AgentEnvOverrides = Readonly<Partial<Record<string, string>>>;

/** What a descriptor's `configPath` is given. */
export interface ConfigPathContext {
  os: 'posix' | 'windows';
  home: string;
  /** Only the variables the descriptor's `configEnv` names are read. */
  env: AgentEnvOverrides;
  /** Joins path parts for `os` (no I/O). */
  join: (...parts: string[]) => string;
}

/** The installers' variant of an agent's event list by its version (see `install/claude-gate.ts`). */
export type EventGate = 'claudeCodeVersion';

/** Everything the compiler, the launcher builders and the installers know about one agent. */
export interface AgentDescriptor {
  id: AgentId;
  source: HookSource;
  /** Stem of `~/.orca/agent-hooks/<stem>-hook.<ext>`. */
  scriptStem: string;
  events: readonly string[];
  /** Events that get matcher `toolMatcher` (claude-shaped configs). */
  toolEvents: readonly string[];
  toolMatcher?: string;
  protocol: ProtocolOutput | null;
  capture: CapturePolicy;
  boundedIf?: string;
  skips: readonly SkipRule[];
  extras: readonly ExtraField[];
  maxTimeS: number;
  recoverEnv: boolean;
  configShape: ConfigShape;
  /** Config timeout in the config's own unit. */
  configTimeout: number;
  windowsDialect: 'batch' | 'pwsh';
  launcherEnv?: LauncherEnvRule;
  /** Windows command form for this agent's handlers. */
  windowsLauncher: 'encodedPowerShell' | 'cmdFastPath' | 'claude';
  /** POSIX command form: guarded `/bin/sh <script>`, or through the runtime's home (Claude's). */
  posixLauncher: 'posixGuarded' | 'runtimeHome';
  /** The config file its hooks live in. */
  configPath: (ctx: ConfigPathContext) => string;
  /** Env vars `configPath` honours (`CODEX_HOME`); the installers pass only these through. */
  configEnv: readonly string[];
  /** Config timeout on Windows, where it differs from `configTimeout`. */
  windowsConfigTimeout?: number;
  /**
   * Windows: one `<stem>.cmd` per event that sets `launcherEnv` and calls the agent's script,
   * because its config cannot pass env (event → stem).
   */
  windowsEventWrappers?: Readonly<Record<string, string>>;
  /** The agent's own switch that turns every hook off (install state then reads `partial`). */
  hooksDisabled?: (config: Readonly<Record<string, unknown>>) => boolean;
  /** An empty config file is the user's opt-out: nothing is installed or removed. */
  emptyConfigOptsOut?: true;
  /** The launcher exits unread without `ORCA_PANE_KEY` (the agent may hold stdin open outside Orca). */
  requiresPaneKey?: true;
  /** Hooks run only once trusted by hash in `config.toml` beside the config (Codex ≥ 0.129). */
  hookTrust?: 'codexConfigToml';
  /** The installed events depend on the agent's version. */
  eventGate?: EventGate;
}
