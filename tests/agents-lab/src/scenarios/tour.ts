import fs from 'node:fs';
import path from 'node:path';
import type { BlockedReason } from '@orca/agent-status';
import type { AgentProfile } from '../agents/profile.ts';
import type { LabRun } from '../harness/lab-run.ts';
import type { MomentSpec } from '../harness/scenario-runner.ts';
import { selectOption } from '../harness/select-option.ts';
import { byPrompt, type Reply, type ReplyPicker } from '../model/scenario.ts';

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

/** The prompts of the tour (each one key of the reply table). */
export const TOUR_PROMPTS = {
  stream: 'tell me a long story',
  slowTool: 'run the slow tool',
  edit: 'edit the readme',
  write: 'write a new file',
  fetch: 'fetch the lab page',
  cancel: 'stream and be cancelled',
  error: 'trigger an api error',
} as const;

/** Files the tour's tools would touch: their absence proves a refused injection approved nothing. */
export const TOUR_FILES = {
  slowTool: 'slow-tool-ran.txt',
  write: 'written-by-the-lab.txt',
  editMark: 'edited by the lab',
} as const;

const STORY_WORDS = ['a lighthouse', 'a river', 'an old map', 'a locked door', 'a kite', 'a quiet town', 'a storm'];

/** A long text with no repeated chunk (Gemini CLI's loop detection stops a turn that repeats itself). */
export function storyText(sentences: number): string {
  return Array.from(
    { length: sentences },
    (_, i) => `Part ${i + 1} is about ${STORY_WORDS[i % STORY_WORDS.length]} (${(i * 37) % 101}).`,
  ).join(' ');
}

/** The page the fetch approval asks about (port 9, discard: nothing listens there). */
export const TOUR_FETCH_URL = 'http://127.0.0.1:9/lab-page';

/** The model's replies for every prompt of the tour. */
export function tourReplies(screens: AgentScreens, project: string): ReplyPicker {
  const error: Reply = { kind: 'error', status: screens.errorStatus ?? 500, message: 'lab: scripted API error' };
  return byPrompt({
    [TOUR_PROMPTS.stream]: [{ kind: 'slow-text', text: storyText(40), seconds: 7 }],
    [TOUR_PROMPTS.slowTool]: [
      {
        kind: 'tool',
        text: 'Running the slow tool.',
        call: {
          tool: 'shell',
          command: `${screens.slowToolWait ?? 'sleep 4'} && touch ${TOUR_FILES.slowTool}`,
          description: 'Run the slow tool',
        },
      },
      { kind: 'text', text: 'The slow tool finished.' },
    ],
    [TOUR_PROMPTS.edit]: [
      ...(screens.readBeforeEdit
        ? [{ kind: 'tool', call: { tool: 'read', path: path.join(project, 'README.md') } } as const]
        : []),
      {
        kind: 'tool',
        call: {
          tool: 'edit',
          path: path.join(project, 'README.md'),
          oldText: '# lab project',
          newText: `# ${TOUR_FILES.editMark}`,
        },
      },
      { kind: 'text', text: 'Edited.' },
    ],
    [TOUR_PROMPTS.write]: [
      { kind: 'tool', call: { tool: 'write', path: path.join(project, TOUR_FILES.write), content: 'hello\n' } },
      { kind: 'text', text: 'Written.' },
    ],
    [TOUR_PROMPTS.fetch]: [
      // Why: the fetch is never approved; a closed loopback port keeps it offline even if it were.
      { kind: 'tool', call: { tool: 'fetch', url: TOUR_FETCH_URL, prompt: 'Summarise the lab page' } },
      { kind: 'text', text: 'Fetched.' },
    ],
    [TOUR_PROMPTS.cancel]: [{ kind: 'slow-text', text: storyText(80), seconds: 30 }],
    [TOUR_PROMPTS.error]: Array.from({ length: screens.errorReplies }, () => error),
  });
}

/** Pause between the Esc presses of an interrupt, ms (a TUI reads two quick ones as Alt+Esc). */
const INTERRUPT_PRESS_GAP_MS = 400;

const IDLE = { status: 'idle', isRunningAgent: true, agentWait: 'null' } as const;
const WORKING = { status: 'working', isRunningAgent: true, agentWait: 'null' } as const;
function approvalOf(screens: AgentScreens) {
  return {
    status: 'permission',
    isRunningAgent: true,
    agentWait: 'object',
    reason: screens.approvalReason ?? 'agent-approval-prompt',
  } as const;
}

async function dispatch(run: LabRun, prompt: string): Promise<void> {
  await run.host.dispatchInject(run.handle, prompt);
}

function fileIn(run: LabRun, name: string): string {
  return path.join(run.ctx.project, name);
}

function absent(run: LabRun, name: string): string | null {
  return fs.existsSync(fileIn(run, name)) ? `${name} exists` : null;
}

/**
 * Waits for the idle prompt, answering the startup questions of `screens.startupQuestions` that
 * come first (for runs that are not about them, such as benchmarks).
 */
export async function reachIdle(run: LabRun, screens: AgentScreens, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let idleSince: number | null = null;
  for (;;) {
    const state = screenState(run);
    const question = (screens.startupQuestions ?? []).find((q) => q.marker.test(state.text));
    if (question) {
      await selectOption(run, question.choose);
      idleSince = null;
    } else if (screens.idle(state)) {
      idleSince ??= Date.now();
      if (Date.now() - idleSince >= 3_000) return;
    } else idleSince = null;
    if (Date.now() > deadline)
      throw new Error(`${run.profile.build}: no idle prompt within ${timeoutMs} ms:\n${state.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The startup moments: trust (when not pre-accepted) and the API-key question (when asked). */
export function startupMoments(screens: AgentScreens, opts: { trust: boolean; apiKey: boolean }): MomentSpec[] {
  const out: MomentSpec[] = [];
  const { trust, trustYes } = screens;
  if (opts.trust && trust && trustYes) {
    out.push({
      name: 'startup-trust',
      marker: trust,
      expect: { status: 'permission', isRunningAgent: true, agentWait: 'object', reason: 'agent-trust-workspace' },
      tuiIdle: 'blocked',
      dispatchRefused: true,
      leave: (run) => selectOption(run, trustYes),
      why: 'Startup workspace-trust question: a human must answer it, and an injected Enter would answer it.',
    });
  }
  if (opts.apiKey && screens.apiKey && screens.apiKeyYes) {
    const yes = screens.apiKeyYes;
    out.push({
      name: 'startup-api-key',
      marker: screens.apiKey,
      expect: { status: 'permission', isRunningAgent: true, agentWait: 'object' },
      tuiIdle: 'blocked',
      dispatchRefused: true,
      leave: (run) => selectOption(run, yes),
      why: 'Startup custom-API-key question: a human must answer it.',
    });
  }
  for (const q of screens.startupQuestions ?? []) {
    out.push({
      name: q.name,
      marker: q.marker,
      skipIf: (run) => screens.idle(screenState(run)),
      expect: { status: 'permission', isRunningAgent: true, agentWait: 'object', reason: 'agent-interactive-prompt' },
      tuiIdle: 'blocked',
      dispatchRefused: true,
      leave: (run) => selectOption(run, q.choose),
      why: `Startup question (${q.name.replace('startup-', '')}): a selection menu only a human may answer.`,
    });
  }
  return out;
}

function approvalMoment(
  screens: AgentScreens,
  name: string,
  marker: RegExp,
  prompt: string,
  noEffect: (run: LabRun) => string | null,
  leave: (run: LabRun) => Promise<void>,
): MomentSpec[] {
  return [
    {
      name: `idle-before-${name}`,
      marker: (run) => screens.idle(screenState(run)),
      expect: IDLE,
      holdMs: 1_600,
      fixture: false,
    },
    {
      name,
      enter: (run) => dispatch(run, prompt),
      marker,
      expect: approvalOf(screens),
      tuiIdle: 'blocked',
      dispatchRefused: true,
      noEffect,
      leave,
      why: `Real ${name.replace('permission-', '')} approval dialog: only a human may answer it.`,
    },
  ];
}

/**
 * The tour after startup: idle → streaming → shell approval → long tool run → edit, write and fetch
 * approvals (cancelled with Esc) → interrupted stream → API error → exit.
 */
export function tourMoments(profile: AgentProfile, screens: AgentScreens): MomentSpec[] {
  const idleMarker = (run: LabRun) => screens.idle(screenState(run));
  const working = (run: LabRun) => screens.working(screenState(run));
  const esc = async (run: LabRun) => run.press('\x1b');
  const moments: MomentSpec[] = [
    {
      name: 'idle',
      marker: idleMarker,
      markerTimeoutMs: 45_000,
      // Why: Codex paints its composer, then may set its spinner title for startup work a moment later.
      markerStableMs: 1_000,
      expect: IDLE,
      tuiIdle: 'satisfied',
      why: 'The idle prompt after startup: the agent waits for a prompt, not for a decision.',
    },
    {
      name: 'working-stream',
      enter: (run) => dispatch(run, TOUR_PROMPTS.stream),
      marker: working,
      expect: WORKING,
      holdMs: 3_000,
      tuiIdle: 'not-satisfied',
      why: 'Streaming a reply: working.',
    },
    ...approvalMoment(
      screens,
      'permission-shell',
      screens.approval.shell,
      TOUR_PROMPTS.slowTool,
      (run) => absent(run, TOUR_FILES.slowTool),
      async (run) => run.press(screens.approveKeys),
    ),
    {
      name: 'working-tool',
      marker: (run) => screens.toolRunning(screenState(run)),
      expect: WORKING,
      holdMs: 2_000,
      why: 'An approved tool is running: working.',
    },
  ];
  const edit = screens.approval.edit;
  if (edit) {
    moments.push(
      ...approvalMoment(
        screens,
        'permission-edit',
        edit,
        TOUR_PROMPTS.edit,
        (run) =>
          fs.readFileSync(fileIn(run, 'README.md'), 'utf8').includes(TOUR_FILES.editMark)
            ? 'README.md was edited'
            : null,
        esc,
      ),
    );
  }
  const write = screens.approval.write;
  if (write) {
    moments.push(
      ...approvalMoment(
        screens,
        'permission-write',
        write,
        TOUR_PROMPTS.write,
        (run) => absent(run, TOUR_FILES.write),
        esc,
      ),
    );
  }
  const fetch = screens.approval.fetch;
  if (fetch) moments.push(...approvalMoment(screens, 'permission-fetch', fetch, TOUR_PROMPTS.fetch, () => null, esc));
  moments.push(
    {
      name: 'idle-before-cancel',
      marker: idleMarker,
      expect: IDLE,
      holdMs: 1_600,
      fixture: false,
    },
    {
      name: 'working-before-cancel',
      enter: (run) => dispatch(run, TOUR_PROMPTS.cancel),
      marker: working,
      expect: WORKING,
      holdMs: 1_600,
      fixture: false,
      leave: async (run) => {
        for (let i = 0; i < (screens.interruptPresses ?? 1); i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, INTERRUPT_PRESS_GAP_MS));
          run.press('\x1b');
        }
      },
    },
    {
      name: 'cancelled',
      marker: (run) => screens.cancelled.test(run.screenText()) && screens.idle(screenState(run)),
      expect: IDLE,
      tuiIdle: 'satisfied',
      why: 'A turn cancelled with Esc: back at the prompt.',
    },
    {
      name: 'api-error',
      enter: async (run) => {
        // Why: as a user would, empty a composer the cancelled turn put its prompt back into.
        if (screens.clearDraftKeys !== undefined) {
          run.press(screens.clearDraftKeys);
          await new Promise((r) => setTimeout(r, 400));
        }
        await dispatch(run, TOUR_PROMPTS.error);
      },
      marker: (run) => screens.apiError.test(run.screenText()) && screens.idle(screenState(run)),
      markerTimeoutMs: 60_000,
      expect: IDLE,
      tuiIdle: 'satisfied',
      why: 'An API error ended the turn: back at the prompt.',
    },
    {
      name: 'exited',
      enter: async (run) => {
        const [command, ...keys] = profile.exitKeys;
        run.press(command ?? '');
        await new Promise((r) => setTimeout(r, 400));
        for (const k of keys) run.press(k);
      },
      marker: (run) => run.host.livePane(run.handle).exit !== null,
      expect: { status: null, isRunningAgent: false, agentWait: 'absent' },
      holdMs: 1_600,
      fixture: false,
    },
  );
  return moments;
}
