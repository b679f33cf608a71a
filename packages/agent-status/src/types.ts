import type { AgentId } from './agent-ids.ts';
import type { BlockedReason } from './blocked-reasons.ts';

/** State of one status row (hook or OSC). */
export type RowState = 'working' | 'blocked' | 'waiting' | 'done';
/** A pane's agent status; null = no agent evidence. */
export type AgentStatus = 'working' | 'permission' | 'idle' | null;

/** One normalized hook or OSC observation. */
export interface StatusRow {
  state: RowState;
  /** Arrival, ms. */
  receivedAt: number;
  /** When this state began, ms (carried while the state is unchanged). */
  stateStartedAt: number;
  source: AgentId;
  via: 'hook' | 'osc';
  interrupted?: true;
  /** Only PermissionRequest rows: lets fusion heal a deny that fires no hook. */
  toolUseId?: string;
  /**
   * Only PermissionRequest rows of agents that show the request as a dialog (Claude family,
   * Codex): once a rendered screen shows no prompt, the wait is over — approved (the next hook
   * fires only when the tool ends) or denied (no hook at all).
   */
  dialog?: true;
  toolName?: string;
  toolInput?: string;
  prompt?: string;
  lastAssistantMessage?: string;
  interactivePrompt?: string;
  agentType?: string;
  model?: string;
  subagents?: readonly OscSubagent[];
}

/** One subagent carried by an OSC 9999 payload. */
export interface OscSubagent {
  id: string;
  state: 'working' | 'blocked' | 'waiting' | 'idle';
  startedAt: number;
  agentType?: string;
  model?: string;
  description?: string;
}

/** The pane title as the host knows it. */
export interface TitleEvidence {
  text: string;
  /** Set by the PTY's current process. */
  live: boolean;
  /** Carried over from a previous host run. */
  restored?: boolean;
  /** Arrival, ms; null when unknown. */
  at: number | null;
}

/** Reads the foreground process argv (joined by spaces); null if unreadable. */
export interface ForegroundProbe {
  read(): Promise<string | null>;
  confirm?(): Promise<string | null>;
}

/** Everything the host knows about one pane. */
export interface PaneEvidence {
  now: number;
  ptyId: string;
  exited?: boolean;
  rows?: readonly StatusRow[];
  title?: TitleEvidence;
  tail?: string | readonly string[];
  screen?: readonly string[];
  waitBlockedAt: number | null;
  /**
   * When the newest prompt or menu the host saw on its rendered screen appeared there (ms; absent
   * or null: none seen). A dialog that appeared after a permission row and is gone now was
   * answered: the row's draw grace is over.
   */
  promptSeenAt?: number | null;
  probe?: ForegroundProbe;
}

/** Proof that a pane waits on a human. */
export interface AgentWait {
  source: 'hook' | 'prompt-text' | 'title';
  reason?: BlockedReason;
  since?: number;
}

/**
 * The verdict of one pane. `agentWait` absent = not evaluated; `null` = evaluated, no proof.
 * Never turn absent into null.
 */
export interface PaneVerdict {
  status: AgentStatus;
  isRunningAgent: boolean;
  agentWait?: AgentWait | null;
}
