/**
 * What the runtime methods answer, as clients read it. Declared here (browser-safe, types only) so
 * the host's handlers must return these shapes and the CLI and the board read them, with no copy
 * to drift: a host value that stops fitting fails the host's typecheck, a field a client reads and
 * the contract lacks fails the client's.
 */

/** A pane's agent status; null = no agent evidence (`@orca/agent-status` `AgentStatus`). */
export type AgentStatusView = 'working' | 'permission' | 'idle' | null;

/** Proof that a pane waits on a human (`@orca/agent-status` `AgentWait`). */
export interface AgentWaitView {
  readonly source: 'hook' | 'prompt-text' | 'title';
  /** The blocked reason (`agent-approval-prompt`, `question`, …). */
  readonly reason?: string;
  readonly since?: number;
}

/** A pane's verdict. `agentWait` absent = not evaluated; null = evaluated, no proof. */
export interface VerdictView {
  readonly status: AgentStatusView;
  readonly isRunningAgent: boolean;
  readonly agentWait?: AgentWaitView | null;
}

/** How a pane's process ended (`cause`: why, when it did not end by itself). */
export interface PaneExitView {
  readonly code: number | null;
  readonly signal: number | null;
  readonly cause?: string;
}

/** How a session resumes (its argv), or why it cannot. */
export type ResumePlanView = { readonly argv: readonly string[] } | { readonly reason: string };

/** What `orca terminal show` / `orca ls` and the board report about a pane. */
export interface PaneView {
  handle: string;
  name: string | null;
  paneKey: string;
  cwd: string;
  guest: string | null;
  /** The program it runs: its argv[0]'s last path segment (`bash`, `claude`); never its arguments. */
  command: string;
  /** The agent its hook events named (null until one did). */
  agent: string | null;
  title: string | null;
  status: AgentStatusView;
  isRunningAgent: boolean;
  /** Absent: not evaluated; null: evaluated, no proof; object: the agent waits on a human. */
  agentWait?: AgentWaitView | null;
  /** When the current verdict was published (ms since the epoch); absent before the first. */
  changedAt?: number;
  exited?: { code: number | null; signal: number | null; cause: string };
  /** Prompts queued for it and not delivered yet (absent: none). */
  queued?: number;
  /** The pane process's pid while it runs. */
  pid?: number;
  /** True when the PTY keeper holds the process (it outlives the host). */
  kept?: boolean;
  /** A pane that ended with its keeper or host: how its agent's session resumes, or why it cannot. */
  resume?: ResumePlanView;
  /** The pane that resumed this one's session. */
  resumedAs?: string;
  /** The rendered screen (`terminal.show` only). */
  tail?: string;
}

/** A stage a dispatch reached, with its time (ms, the host clock). */
export interface DispatchStage {
  readonly stage: 'ready' | 'input_written' | 'submitted' | 'working';
  readonly at: number;
}

/** What `terminal.dispatch` reports once the agent took the prompt. */
export interface DispatchReceipt {
  /** Bytes written into the PTY (the text, its paste markers, every submit key). */
  readonly bytes: number;
  readonly stages: readonly DispatchStage[];
  /** What proved the submission: the agent's prompt hook, or its screen. */
  readonly submittedBy: 'hook' | 'screen';
  /** With `submittedBy: 'hook'`: the hook carried this prompt's `text`, or only the `event`. */
  readonly hookProof?: 'text' | 'event';
  /** SHA-256 (hex) of the prompt as compared with hooks: which prompt this proves. */
  readonly promptDigest: string;
  /** Submit keys sent (2 when the first left the draft in the composer). */
  readonly submitKeys: number;
  /** Proven after a host restart from the stored prompt hook (`bytes`, `submitKeys` then 0). */
  readonly recovered?: true;
}

/** Where a queued prompt is. */
export type QueueState = 'queued' | 'delivering' | 'submitted' | 'failed' | 'cancelled' | 'expired';

/** A queued prompt (`queue.*`, `orca queue ls --json`, the board's queue). */
export interface QueueItemView {
  readonly id: number;
  readonly handle: string;
  readonly state: QueueState;
  readonly prompt: string;
  /** Who queued it: `cli`, `rpc` or `web`. */
  readonly source: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Place among the pane's pending items (1 = next); absent once final. */
  readonly position?: number;
  readonly expiresAt?: number;
  /** When its text started to be written. */
  readonly deliveringAt?: number;
  /** The receipt of a submitted item. */
  readonly receipt?: DispatchReceipt;
  /** Why it failed (a refusal code), was cancelled or expired. */
  readonly error?: { readonly code: string; readonly message: string };
  /** What the next item waits for (`the agent is busy`, `a human (agent-approval-prompt)`, …). */
  readonly waitingFor?: string;
}

/** The end of `terminal.wait`. */
export interface WaitResult {
  satisfied: boolean;
  blockedReason?: string;
  exit?: PaneExitView;
}

/** One `status.watch` event. */
export interface VerdictChange {
  readonly handle: string;
  readonly at: number;
  readonly verdict: VerdictView;
}

/** Why a verdict is what it is (`@orca/agent-status` `VerdictExplanation`). */
export interface VerdictExplanationView {
  readonly verdict: VerdictView;
  readonly rule: string;
  readonly authority: string;
  readonly evidence: {
    readonly row?: {
      readonly state: string;
      readonly source: string;
      readonly via: string;
      readonly receivedAt: number;
      readonly toolName?: string;
      readonly dialog?: true;
    };
    readonly screen?: {
      readonly reason: string;
      readonly kind: string;
      readonly anchor: string;
      readonly lines: readonly string[];
    };
    readonly title?: { readonly text: string; readonly kind: string; readonly live: boolean };
    readonly process?: { readonly agent: string | null; readonly shellOwns: boolean };
  };
  readonly overrode: readonly string[];
  readonly screenShowsPrompt: boolean;
}

/** One stored transition (`status.explain`). */
export interface ExplainedTransitionView {
  readonly at: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly published: VerdictView;
  readonly explanation: VerdictExplanationView;
  /** The stored evidence evaluated again (with `replay`); `kept: false` when none was kept. */
  readonly replay?: { readonly verdict: VerdictView; readonly same: boolean } | { readonly kept: false };
}

/** The last attempt of one event at one sink (`notify.test`). */
export interface NotifyDeliveryView {
  readonly sink: string;
  readonly outcome: 'delivered' | 'failed' | 'skipped';
  readonly attempts: number;
  readonly error?: string;
}

/** One stored notification attempt (`notify.log`). */
export interface NotifyAttemptView {
  readonly id: number;
  readonly eventId: string;
  readonly handle: string | null;
  readonly kind: string;
  readonly sink: string;
  readonly attempt: number;
  readonly at: number;
  /** `delivered`, `retrying`, `failed` (given up) or `skipped`. */
  readonly outcome: string;
  readonly status: number | null;
  readonly latencyMs: number | null;
  readonly error: string | null;
}

/** What a notification says. */
export type NotifyKind = 'waiting' | 'resolved' | 'escalated' | 'done' | 'error' | 'test';

/** One notification (`notify.watch`; the webhook body and a command's stdin too). */
export interface NotifyEventView {
  /** Unique per event; a `resolved` names the `waiting` it resolves in `resolves`. */
  readonly id: string;
  readonly kind: NotifyKind;
  readonly at: number;
  readonly handle: string | null;
  readonly name: string | null;
  readonly agent: string | null;
  /** What the agent waits for (`permission`, `question`, …) or how the pane ended. */
  readonly reason: string | null;
  /** When the wait began (waiting, resolved, escalated). */
  readonly since?: number;
  readonly resolves?: string;
  /** One line for people (Slack's `text`, the ntfy body, the desktop body). */
  readonly text: string;
  /** A short title (ntfy `Title`, the desktop summary). */
  readonly title: string;
}

/** A pane whose agent session can be (or cannot be, and why) started again (`resume.list`). */
export interface ResumeCandidateView {
  readonly handle: string;
  readonly name: string | null;
  readonly cwd: string;
  readonly agent: string | null;
  readonly sessionId: string | null;
  readonly cause: string;
  readonly exitedAt: number | null;
  readonly plan: ResumePlanView;
}

/** What `resume.run` did. */
export interface ResumeReportView {
  readonly resumed: readonly { readonly from: string; readonly to: PaneView; readonly argv: readonly string[] }[];
  readonly skipped: readonly { readonly handle: string; readonly reason: string }[];
}

/** A guest (`guest.add`, `guest.list`). */
export interface GuestInfoView {
  readonly name: string;
  readonly kind: string;
  readonly target: string;
  readonly connectionId: string;
  /** `connecting`, `connected`, `cooldown`, … */
  readonly phase: string;
  readonly failures: number;
  readonly cooldownUntil?: number;
  readonly lastError?: string;
  /** The guest's home directory, once connected. */
  readonly home?: string;
  readonly endpointPath?: string;
}

/** What one compaction (`store.gc`) removed and how the files changed. */
export interface GcReportView {
  /** Hook rows older than the host's row age limit. */
  readonly expiredRows: number;
  /** Hook rows whose pane key no stored pane has. */
  readonly orphanRows: number;
  /** Hook rows beyond a pane's row or byte cap. */
  readonly cappedRows: number;
  /** Verdicts beyond the per-pane cap. */
  readonly verdictRows: number;
  /** `orca.sqlite` + `-wal` before and after (bytes). */
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/** One paired browser session (`web.sessions`); the secret is never kept. */
export interface WebSessionView {
  readonly id: string;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly expiresAt: number;
  /** Sockets it has open now. */
  readonly sockets: number;
}
