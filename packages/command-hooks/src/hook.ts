import type { CanonicalEvent } from './events.ts';

/** The three hook-config dialects; chosen by the config file's path, never its content. */
export type Dialect = 'claude' | 'cursor' | 'orca';

/** What a failed run does on a decision event: `closed` denies, `open` abstains. */
export type FailureMode = 'open' | 'closed';

/**
 * One user hook, normalized from any dialect. `id = "<dialect>:<source label>#<JSON pointer>"`,
 * e.g. `claude:~/.claude/settings.json#/hooks/Stop/0/hooks/0`.
 */
export interface CommandHook {
  id: string;
  dialect: Dialect;
  /** Canonical event the hook runs at. */
  event: CanonicalEvent;
  /** The event name as written in the config (`PreToolUse`, `beforeShellExecution`, `toolGate`). */
  wireEvent: string;
  command: string;
  /** Working directory of the hook process. */
  cwd: string;
  /** Wall-clock timeout in ms (clamped to `MAX_TIMER_MS` at spawn). */
  timeoutMs: number;
  /** Config file label (`~/.claude/settings.json`, `.cursor/hooks.json`). */
  source?: string;
  /** Dialect matcher string (see the README's matcher rules). */
  matcher?: string;
  /** orca: picomatch globs on file events. */
  glob?: string[];
  /** Vendor failure mode of this hook (`failurePolicy: 'strict'` overrides it to closed). */
  onFailure: FailureMode;
  /** Run detached even on a blocking event (its decision is recorded `enforced:false`). */
  async?: boolean;
  /** `false` opts out of the sandbox runtime. */
  sandbox?: boolean;
  /** Stop follow-up cap: number, `null` = no cap; default 5. */
  loopLimit?: number | null;
  /** Project root the hook belongs to (`CLAUDE_PROJECT_DIR` …); defaults to `cwd`. */
  projectDir?: string;
}
