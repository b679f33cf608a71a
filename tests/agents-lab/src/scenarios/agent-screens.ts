import type { BlockedReason } from '@orca/agent-status';
import type { LabRun } from '../harness/lab-run.ts';

/** What the lab reads off a pane to tell a moment: the rendered screen and the window title. */
export interface ScreenState {
  readonly text: string;
  readonly title: string | null;
}

/** The screen state of a run, now. */
export function screenState(run: LabRun): ScreenState {
  return { text: run.screenText(), title: run.view().title };
}

/** How one agent's screens look at each moment of the tour, and which keys answer them. */
export interface AgentScreens {
  /** The idle prompt, nothing running and no dialog. */
  readonly idle: (s: ScreenState) => boolean;
  /** The agent is working (spinner, "esc to interrupt"). */
  readonly working: (s: ScreenState) => boolean;
  /** A tool is running after approval. */
  readonly toolRunning: (s: ScreenState) => boolean;
  /** Startup workspace-trust question, and the option that trusts (absent: the agent asks none). */
  readonly trust?: RegExp;
  readonly trustYes?: RegExp;
  /** Startup API-key question (Claude), and the option that accepts. */
  readonly apiKey?: RegExp;
  readonly apiKeyYes?: RegExp;
  /**
   * Other startup questions some versions ask (Claude 2.1.332: make auto mode the default). Each
   * is a moment when it shows up before the idle prompt, skipped when the idle prompt comes first.
   */
  readonly startupQuestions?: readonly { readonly name: string; readonly marker: RegExp; readonly choose: RegExp }[];
  /** Approval dialogs per tool kind (absent: the agent has no such dialog). */
  readonly approval: {
    readonly shell: RegExp;
    readonly edit?: RegExp;
    readonly write?: RegExp;
    readonly fetch?: RegExp;
  };
  /** Keys that approve the selected (first) option of an approval dialog. */
  readonly approveKeys: string;
  /**
   * The reason the status engine gives the agent's approval dialog (default
   * `agent-approval-prompt`).
   */
  readonly approvalReason?: BlockedReason;
  /** Esc presses that interrupt a streaming turn (default 1; opencode asks for a second). */
  readonly interruptPresses?: number;
  /** The screen after a cancelled approval or an interrupted turn. */
  readonly cancelled: RegExp;
  /** An API error shown to the user. */
  readonly apiError: RegExp;
  /** How the error reply is repeated (clients retry). */
  readonly errorReplies: number;
  /** HTTP status of the scripted API error (default 500). */
  readonly errorStatus?: 400 | 429 | 500 | 503 | 529;
  /** The agent refuses to edit a file it has not read (Claude Code 2.1.197). */
  readonly readBeforeEdit?: boolean;
  /** Keys that empty the composer, for an agent that puts a cancelled prompt back into it. */
  readonly clearDraftKeys?: string;
  /** The slow tool's 4-second wait, where the agent refuses `sleep 4 && …` (default `sleep 4`). */
  readonly slowToolWait?: string;
}
