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
export type ConfigShape = 'claude' | 'codex' | 'gemini' | 'antigravity' | 'cursor' | 'devin' | 'grok' | 'copilot';

/** Per-event launcher environment (the vendor event name or a JSON answer). */
export interface LauncherEnvRule {
  env: string;
  /** Value for an event; `undefined` ⇒ the event name itself. */
  valueFor?: (event: string) => string;
}

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
}
