import type { CanonicalEvent } from './events.ts';
import type { Dialect, FailureMode } from './hook.ts';
import type { PermissionDecision } from './outcome.ts';

/** Normalized decision summary of one run (sizes, never the texts). */
export interface RunDecision {
  permission?: PermissionDecision;
  /** false when the permission was not applied (Cursor `ask` on preToolUse, async hook on a blocking event). */
  enforced?: boolean;
  haltRun?: boolean;
  updatedInput?: boolean;
  injectContextChars?: number;
  agentMessageChars?: number;
  userMessageChars?: number;
  queuedMessageChars?: number;
  sessionEnvKeys?: string[];
  droppedSessionEnvKeys?: string[];
  loopLimitReached?: boolean;
  sandboxBlocked?: boolean;
  /** Output fields read but deliberately not applied (e.g. `updated_input` that is not an object). */
  ignoredFields?: string[];
}

/** One spawned run: exactly one per spawn, none per abstention. */
export interface RunRecord {
  kind: 'run';
  /** Wire event name (`PreToolUse`, `beforeShellExecution`, `toolGate`). */
  event: string;
  canonicalEvent: CanonicalEvent;
  dialect: Dialect;
  hookId: string;
  command: string;
  conversationId?: string;
  /** Epoch ms from the injected clock. */
  startedAt: number;
  durationMs: number;
  timeoutMs: number;
  /** The exact string written to the hook's stdin. */
  stdin: string;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
  parseOk: boolean;
  failed: boolean;
  failureMode?: FailureMode;
  runtimeError?: string;
  sandboxed: boolean;
  sandboxViolations: number;
  decision: RunDecision;
}

/** A detached hook that never ran. */
export interface DropRecord {
  kind: 'dropped';
  event: string;
  hookId: string;
  threadId: string;
  turnTreeId?: string;
  reason: 'queue-full' | 'aborted';
  /** Epoch ms from the injected clock. */
  at: number;
}

/** Everything the record sink receives. */
export type HookRecord = RunRecord | DropRecord;
