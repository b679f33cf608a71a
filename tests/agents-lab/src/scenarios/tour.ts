import fs from 'node:fs';
import path from 'node:path';
import type { AgentProfile } from '../agents/profile.ts';
import type { LabRun } from '../harness/lab-run.ts';
import type { MomentSpec } from '../harness/scenario-runner.ts';
import { selectOption } from '../harness/select-option.ts';
import { type AgentScreens, screenState } from './agent-screens.ts';
import { TOUR_FILES, TOUR_PROMPTS } from './tour-replies.ts';

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
