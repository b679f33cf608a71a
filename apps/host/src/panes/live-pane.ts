import type { PaneAnalysis, PaneVerdict } from '@orca/agent-status';
import {
  DEFAULT_PANE_COLS,
  DEFAULT_PANE_ROWS,
  FOREGROUND_RECHECK_INTERVAL_MS,
  HOOK_EVALUATION_SETTLE_MAX_MS,
  OUTPUT_EVALUATION_DELAY_MS,
  OUTPUT_EVALUATION_SETTLE_MAX_MS,
  QUIET_PANE_REEVALUATE_MS,
} from '../constants.ts';
import {
  createPaneHookTiming,
  type EvaluationMarks,
  type HookTimingSink,
  type PaneHookTiming,
  timingNow,
} from '../status/hook-timing.ts';
import type { PaneRecord } from '../store/store.ts';
import { createForegroundReader } from './foreground-probe.ts';
import { createPaneInput, type PaneInput } from './pane-input.ts';
import type { PaneExit, PaneProcess } from './pane-process.ts';
import { createPaneStatus, type PaneStatus } from './pane-status.ts';
import { createPromptHookLog, type PromptHookLog } from './prompt-hooks.ts';
import { createPaneScreen, type PaneScreen, type ScreenEngine } from './screen.ts';
import { hookDecidesAlone } from './verdict-authority.ts';

/** A verdict as published: `agentWait` kept exactly (absent key = not evaluated). */
export type Verdict = PaneVerdict;

/** A live pane's record: its agent is not here but in {@link PaneStatus.agent} (learned from hooks). */
export type LivePaneRecord = Omit<PaneRecord, 'agent'>;

/** A pane whose PTY lives in this host run. */
export interface LivePane {
  readonly record: LivePaneRecord;
  readonly process: PaneProcess;
  readonly screen: PaneScreen;
  readonly status: PaneStatus;
  exit: PaneExit | null;
  verdict: Verdict | null;
  /** The analysis {@link verdict} was published from (the journal explains it), or null before the first. */
  verdictAnalysis: PaneAnalysis | null;
  lastOutputAt: number;
  /** A prompt was injected into the current generation (tui-idle rule). */
  acceptedPrompt: boolean;
  /** The agent's session id its hooks reported last (stored for a resume), or null. */
  sessionId: string | null;
  /** The pane's prompt-submit hook events (UserPromptSubmit class) with the prompt each carried. */
  readonly promptHooks: PromptHookLog;
  /**
   * The pane's one writer: every input goes through it (raw input is refused while a prompt
   * delivery holds the pane). Nothing else calls {@link write}.
   */
  readonly input: PaneInput;
  onOutput(listener: (display: string) => void): () => void;
  onChange(listener: () => void): () => void;
  /** The PTY's input; only {@link input} calls it (tests wrap it to count bytes). */
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Resolves with the exit once the process ended. */
  exited(): Promise<PaneExit>;
  /** How many verdict evaluations ran, and how many foreground probes (diagnostics, tests). */
  readonly counters: { readonly evaluations: number; readonly foregroundProbes: number };
  /** Where hook events' time goes on the way to this pane's verdicts (free without a sink). */
  readonly timing: PaneHookTiming;
}

/** Options of {@link startLivePane}. */
export interface LivePaneOptions {
  readonly record: LivePaneRecord;
  /** The pane's process, started by the registry (here or in the PTY keeper). */
  readonly process: PaneProcess;
  /**
   * A pane taken over from the keeper: the bytes that rebuild its screen (its DEC modes, then its
   * kept output), written before any live output and read without making status rows.
   */
  readonly replay?: string;
  readonly cols?: number;
  readonly rows?: number;
  readonly now: () => number;
  /** Where the pane's terminal emulator runs (default: in this thread). */
  readonly screens?: ScreenEngine;
  /** Called with each new verdict that differs from the previous one (`previous`: null before the first). */
  readonly onVerdict: (pane: LivePane, verdict: Verdict, previous: Verdict | null) => void;
  /** The pane's agent became known or changed (from its hook events; the one place it is learned). */
  readonly onAgent: (pane: LivePane, agent: string) => void;
  readonly onExit: (pane: LivePane, exit: PaneExit) => void;
  readonly onTitle: (pane: LivePane, title: string) => void;
  readonly onEvaluationError: (error: unknown) => void;
  /** How often the foreground process is probed; default {@link FOREGROUND_RECHECK_INTERVAL_MS}. */
  readonly foregroundRecheckMs?: number;
  /** Receives where each hook event's time went (the fleet bench); absent: nothing is timed. */
  readonly hookTiming?: HookTimingSink;
}

/** Key comparing verdicts with the tri-state of `agentWait` kept (absent ≠ null). */
export function verdictKey(v: Verdict): string {
  return JSON.stringify([v.status, v.isRunningAgent, 'agentWait' in v ? v.agentWait : '<absent>']);
}

/**
 * Runs a pane over its started process: PTY output → OSC parser → `@xterm/headless`, a status
 * tracker, debounced verdict evaluation whenever evidence changes.
 */
export function startLivePane(opts: LivePaneOptions): LivePane {
  const cols = opts.cols ?? DEFAULT_PANE_COLS;
  const rows = opts.rows ?? DEFAULT_PANE_ROWS;
  const screen = createPaneScreen({ cols, rows, now: opts.now, ...(opts.screens ? { engine: opts.screens } : {}) });
  const proc = opts.process;
  const outputListeners = new Set<(display: string) => void>();
  const changeListeners = new Set<() => void>();
  let exitResolve: (exit: PaneExit) => void = () => undefined;
  const exitPromise = new Promise<PaneExit>((resolve) => {
    exitResolve = resolve;
  });
  /** The pending evaluation: cancels it. */
  let timer: (() => void) | null = null;
  // Why: evaluations may overlap (a hook must not queue behind an output evaluation waiting for a
  // lagging emulator); only a result newer than the last published one is published.
  let started = 0;
  let published = 0;
  let inFlight = 0;

  const notifyChange = (): void => {
    for (const listener of changeListeners) listener();
  };
  const runEvaluation = async (): Promise<void> => {
    const wasUrgent = timerUrgent;
    timer = null;
    timerUrgent = false;
    if (!wasUrgent && inFlight > 0) {
      // An evaluation is already running; fold this output into the next one.
      schedule();
      return;
    }
    // Why: the probe asks for an evaluation only when the foreground changed since the last one, so
    // panes started together (a host restart relaunching a fleet) do not all re-evaluate at once.
    if (process.platform === 'linux' && opts.now() - foregroundSeenAt >= foregroundRecheckMs) {
      // Why: at most once per probe interval, so hook storms do not pay two /proc reads per evaluation;
      // a change missed in between costs one extra evaluation, never a missed one.
      foregroundSeenAt = opts.now();
      lastForeground = foregroundKey();
    }
    counters.evaluations += 1;
    const generation = ++started;
    inFlight += 1;
    const marks = timing.begin();
    let changed = false;
    try {
      const analysis = await decide(wasUrgent, marks);
      marks.evaluated();
      // Why: read before publishing; the correction is asked for after it, so nothing the verdict waits on.
      const screenBehind = !screen.caughtUp();
      if (generation > published) {
        published = generation;
        const previous = pane.verdict;
        const { verdict } = analysis;
        if (previous === null || verdictKey(previous) !== verdictKey(verdict)) {
          pane.verdict = verdict;
          pane.verdictAnalysis = analysis;
          changed = true;
          opts.onVerdict(pane, verdict, previous);
        }
      }
      if (screenBehind) correctOnceSettled();
    } catch (error) {
      opts.onEvaluationError(error);
    } finally {
      inFlight -= 1;
      marks.finished(changed);
    }
    notifyChange();
  };
  /**
   * The verdict of one evaluation. A hook's row that decides on its own is published at once, even
   * while the screen worker is behind; otherwise the evaluation waits (bounded) for the screen. A
   * verdict read from a screen that was still behind is evaluated again once it caught up.
   */
  const decide = async (urgent: boolean, marks: EvaluationMarks): Promise<PaneAnalysis> => {
    if (urgent && !screen.caughtUp()) {
      const early = await status.analyse();
      if (hookDecidesAlone(early)) {
        marks.settled(false);
        return early;
      }
    }
    const waited = await status.settle(urgent ? HOOK_EVALUATION_SETTLE_MAX_MS : OUTPUT_EVALUATION_SETTLE_MAX_MS);
    marks.settled(waited);
    return status.analyse();
  };
  let correctionPending = false;
  const correctOnceSettled = (): void => {
    if (correctionPending) return;
    correctionPending = true;
    void screen.settled().then(() => {
      correctionPending = false;
      // Why: the screen caught up with what an earlier verdict could not read; no debounce on top.
      if (pane.exit === null) schedule(false, 0);
    });
  };
  let timerUrgent = false;
  const counters = { evaluations: 0, foregroundProbes: 0 };
  const foregroundRecheckMs = opts.foregroundRecheckMs ?? FOREGROUND_RECHECK_INTERVAL_MS;
  let lastForeground: string | undefined;
  let foregroundSeenAt = Number.NEGATIVE_INFINITY;
  // Why: a pane is probed at every evaluation; descriptors kept open make each probe one pread.
  const foreground = process.platform === 'linux' ? createForegroundReader(proc.pid) : null;
  const foregroundKey = (): string => `${foreground?.group()} ${foreground?.command()}`;
  /** Output and titles are debounced; hook events (`urgent`) are evaluated at once. */
  const schedule = (urgent = false, delayMs = urgent ? 0 : OUTPUT_EVALUATION_DELAY_MS): void => {
    if (timer !== null) {
      if (!urgent || timerUrgent) return;
      timer();
    }
    timerUrgent = urgent;
    // Why: a hook's evaluation runs in this turn's check phase; a 0 ms timer waits at least 1 ms,
    // the whole budget a hook's verdict may add to its POST.
    if (delayMs <= 0) {
      const immediate = setImmediate(() => void runEvaluation());
      timer = () => clearImmediate(immediate);
    } else {
      const timeout = setTimeout(() => void runEvaluation(), delayMs);
      timer = () => clearTimeout(timeout);
    }
  };

  const timing = createPaneHookTiming(timingNow, opts.hookTiming);
  const status: PaneStatus = createPaneStatus({
    ptyId: `${opts.record.handle}#${proc.pid}`,
    screen,
    now: opts.now,
    exited: () => pane.exit !== null,
    ...(foreground
      ? {
          readForeground: async () => foreground.command(),
          readForegroundGroup: () => foreground.group(),
        }
      : {}),
    onEvidence: (urgent) => schedule(urgent === true),
    onAgent: (agent) => opts.onAgent(pane, agent),
  });

  const pane: LivePane = {
    record: opts.record,
    process: proc,
    screen,
    status,
    exit: null,
    verdict: null,
    verdictAnalysis: null,
    lastOutputAt: opts.now(),
    acceptedPrompt: false,
    sessionId: null,
    promptHooks: createPromptHookLog(),
    // Why: read `pane.write` at each call, so a wrapper set on the pane later sees every byte.
    input: createPaneInput((data) => pane.write(data), opts.now),
    onOutput(listener) {
      outputListeners.add(listener);
      return () => outputListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    write: (data) => proc.write(data),
    resize(c, r) {
      proc.resize(c, r);
      screen.resize(c, r);
    },
    exited: () => exitPromise,
    counters,
    timing,
  };

  // Why: a screen worker that falls behind a flood stops the PTY rather than queue output without bound.
  screen.onFlowControl((pause) => (pause ? proc.pause() : proc.resume()));
  screen.onTitle((change) => {
    opts.onTitle(pane, change.text);
    schedule();
  });
  if (opts.replay) {
    // Why: a rebuilt screen is history, not news: its OSC 9999 frames must not become fresh rows.
    screen.write(status.filterOutput(opts.replay, { replay: true }));
    pane.lastOutputAt = opts.now();
  }
  proc.onData((chunk) => {
    pane.lastOutputAt = opts.now();
    const display = status.filterOutput(chunk);
    screen.write(display);
    for (const listener of outputListeners) listener(display);
    schedule();
  });
  // Why: a foreground-process change (exec, a job started) is evidence no event announces. The
  // probe is two /proc reads; a full evaluation runs only when they changed (or once a minute).
  let quietSince = opts.now();
  const probeForeground = (): void => {
    counters.foregroundProbes += 1;
    if (process.platform !== 'linux' || opts.now() - quietSince >= QUIET_PANE_REEVALUATE_MS) {
      quietSince = opts.now();
      schedule();
      return;
    }
    if (foregroundKey() !== lastForeground) schedule();
  };
  const foregroundPoll = setInterval(() => {
    try {
      probeForeground();
    } catch {
      schedule();
    }
  }, foregroundRecheckMs);
  foregroundPoll.unref();
  proc.onExit((exit) => {
    clearInterval(foregroundPoll);
    foreground?.close();
    status.finish();
    pane.exit = exit;
    opts.onExit(pane, exit);
    exitResolve(exit);
    schedule();
    // Why: an exited pane's emulator (~160 KB) lived until the host stopped; its final screen is kept frozen.
    void screen.settled().then(() => screen.freeze());
  });
  schedule();
  return pane;
}
