import {
  type AgentId,
  analysePane,
  appendStableRow,
  createHookNormalizer,
  createOscStatusParser,
  createScreenWaitStamp,
  createWaitStamp,
  dialogDrawGraceEndsAt,
  evaluatePane,
  evaluateSendGuard,
  evaluateTuiIdle,
  explainAnalysis,
  explainPane,
  isAgentId,
  type PaneAnalysis,
  type PaneEvidence,
  type PaneVerdict,
  pendingDialogRowAt,
  type RecordedEvidence,
  recognise,
  type StatusRow,
  screenHasContent,
  screenMenuShape,
  type VerdictExplanation,
} from '@orca/agent-status';
import { DIALOG_RECHECK_MARGIN_MS, PANE_STATUS_ROWS_KEPT } from '../constants.ts';
import type { PaneScreen } from './screen.ts';

/** What a pane's status tracker needs from the pane that owns it. */
export interface PaneStatusInputs {
  /** Stable id of the PTY generation (the handle plus the process id). */
  readonly ptyId: string;
  readonly screen: PaneScreen;
  readonly now: () => number;
  readonly exited: () => boolean;
  /** Foreground-process reader of the pane's PTY, or undefined where none exists. */
  readonly readForeground?: () => Promise<string | null>;
  /** The PTY's foreground process group now, or null where unreadable (titles are then always live). */
  readonly readForegroundGroup?: () => number | null;
  /** Called when evidence changed and the verdict should be recomputed; `urgent` for hook events. */
  readonly onEvidence: (urgent?: boolean) => void;
  /** The pane's agent became known or changed (its hook events name it). */
  readonly onAgent?: (agent: AgentId) => void;
}

/** A hook event as the tracker consumes it (already through the trust boundary). */
export interface PaneHookInput {
  readonly source: string;
  readonly payload: Record<string, unknown>;
  readonly hookEventName?: string;
  readonly receivedAt: number;
}

/** The per-pane wiring of `@orca/agent-status`: evidence in, verdicts out. No rules of its own. */
export interface PaneStatus {
  /**
   * Feeds raw PTY output through the OSC 9999 parser and the wait stamp; returns what to display.
   * `replay` (a screen rebuilt from the keeper's ring): OSC 9999 frames are removed, not kept as rows.
   */
  filterOutput(chunk: string, opts?: { replay?: boolean }): string;
  /** Normalises a hook event into a row (null when the engine ignores it). */
  /** `eventName`: the vendor event name the ingest read once (out of band, else the payload's). */
  addHookEvent(event: PaneHookInput, eventName?: string): StatusRow | null;
  /** The agent the pane runs, as learned from its hook events. */
  agent(): AgentId | null;
  /** The agent the foreground process is (recognised from its command line), or null. */
  foregroundAgent(): Promise<AgentId | null>;
  evidence(): PaneEvidence;
  /** Evaluates once the emulator parsed earlier output, waiting at most `settleMaxMs` for it. */
  evaluate(settleMaxMs?: number): Promise<PaneVerdict>;
  /**
   * Waits until the screen parsed every write so far, at most `maxMs` (absent: no bound). Resolves
   * true when it had to wait (the screen was behind).
   */
  settle(maxMs?: number): Promise<boolean>;
  /** The verdict of the evidence as it is now (no wait for the screen), with the rule that decided it. */
  analyse(): Promise<PaneAnalysis>;
  /**
   * The verdict of the evidence now, with the rule that decided it and the evidence as recorded.
   * Given an analysis {@link analyse} returned, explains that one (the evidence it read then)
   * without evaluating again.
   */
  explain(analysis?: PaneAnalysis): Promise<{ explanation: VerdictExplanation; recorded: RecordedEvidence }>;
  tuiIdle(opts: { lastOutputAt: number; acceptedPromptThisGeneration: boolean }): ReturnType<typeof evaluateTuiIdle>;
  sendGuard(verdict: PaneVerdict, firstCheckAt: number): ReturnType<typeof evaluateSendGuard>;
  /** Flushes a carried OSC frame at exit. */
  finish(): void;
}

/**
 * Creates the status tracker of one pane.
 *
 * @example
 * const status = createPaneStatus({ ptyId, screen, now: Date.now, exited: () => false, onEvidence });
 * screen.write(status.filterOutput(chunk));
 */
export function createPaneStatus(inputs: PaneStatusInputs): PaneStatus {
  const normalizer = createHookNormalizer({});
  const osc = createOscStatusParser();
  const stamp = createWaitStamp();
  // Why: real TUIs place words with cursor moves and repaint in place; the rendered screen says
  // when a prompt appeared, the byte stream only approximates it (used while the screen is empty).
  const screenStamp = createScreenWaitStamp();
  // Why: a new frozen list per change lets the engine validate and scan it once, not per evaluation.
  let rows: readonly StatusRow[] = Object.freeze([]);
  /** The evidence each analysis read, so {@link PaneStatus.explain} can explain it later. */
  const analysed = new WeakMap<PaneAnalysis, PaneEvidence>();
  let agent: AgentId | null = null;
  let waitBlockedAt: number | null = null;
  /** When the newest prompt or menu seen on a caught-up screen appeared there (see evidence()). */
  let promptSeenAt: number | null = null;
  /** When a menu shape without a prompt signal was first seen in consecutive evidence reads. */
  let menuSince: number | null = null;
  let recheckTimer: ReturnType<typeof setTimeout> | null = null;
  let dialogTimer: ReturnType<typeof setTimeout> | null = null;
  // Why: a title outlives the process that set it (an agent that exited leaves `✋ …` behind);
  // it is live only while that process group is still in front (issue 12).
  let titleOwner: number | null = null;
  inputs.screen.onTitle(() => {
    titleOwner = inputs.readForegroundGroup?.() ?? null;
  });
  const titleLive = (): boolean => {
    if (titleOwner === null || !inputs.readForegroundGroup) return true;
    return inputs.readForegroundGroup() === titleOwner;
  };

  const keep = (row: StatusRow): void => {
    // Why: a stable list is validated and scanned once by the engine, and only its new row is read.
    rows = appendStableRow(rows, row, PANE_STATUS_ROWS_KEPT);
  };
  const applyStamp = (result: { waitBlockedAt: number | null; recheckAt?: number }): void => {
    waitBlockedAt = result.waitBlockedAt;
    if (result.recheckAt !== undefined && recheckTimer === null) {
      const delay = Math.max(0, result.recheckAt - inputs.now());
      recheckTimer = setTimeout(() => {
        recheckTimer = null;
        applyStamp(stamp.flush(inputs.now()));
        inputs.onEvidence();
      }, delay);
      recheckTimer.unref?.();
    }
  };

  return {
    filterOutput(chunk, o) {
      const { display, payloads } = osc.push(chunk);
      const now = inputs.now();
      if (o?.replay) return display;
      for (const payload of payloads) {
        // Why: an OSC 9999 frame names its own agent; it must not wait for a hook to name the pane's.
        const source = isAgentId(payload.agentType) ? payload.agentType : agent;
        const row = source ? normalizer.fromOsc(payload, source, now) : null;
        if (row) keep(row);
      }
      if (display.length > 0) applyStamp(stamp.append(display, now));
      return display;
    },
    addHookEvent(event, eventName = event.hookEventName) {
      if (isAgentId(event.source) && agent !== event.source) {
        agent = event.source;
        inputs.onAgent?.(agent);
      }
      const row = normalizer.normalize({
        source: event.source,
        payload: event.payload,
        ...(eventName !== undefined ? { hookEventName: eventName } : {}),
        receivedAt: event.receivedAt,
      });
      if (row) keep(row);
      inputs.onEvidence(true);
      // Why: a permission row holds without its dialog only for the draw grace; a deny within it
      // leaves a quiet screen, so look again once the grace is over.
      const graceEnds = row ? dialogDrawGraceEndsAt(row) : null;
      if (graceEnds !== null) {
        if (dialogTimer) clearTimeout(dialogTimer);
        dialogTimer = setTimeout(
          () => {
            dialogTimer = null;
            inputs.onEvidence();
          },
          Math.max(0, graceEnds - inputs.now()) + DIALOG_RECHECK_MARGIN_MS,
        );
        dialogTimer.unref?.();
      }
      return row;
    },
    agent: () => agent,
    async foregroundAgent() {
      if (!inputs.readForeground) return null;
      try {
        return recognise(await inputs.readForeground());
      } catch {
        return null;
      }
    },
    evidence() {
      const title = inputs.screen.title();
      const now = inputs.now();
      const screen = inputs.screen.renderedRows();
      const blockedAt = screenHasContent(screen) ? screenStamp.observe(screen, now) : waitBlockedAt;
      // Why: a dialog that appeared on the screen after its permission row and is gone now was
      // answered (the row's draw grace ends). What counts is when the prompt appeared (the screen
      // stamp's time, or when a menu shape was first seen), read only from a screen that caught up
      // with the output: a stale screen still showing the previous dialog must not count.
      if (pendingDialogRowAt(rows) !== null && inputs.screen.caughtUp()) {
        const menu = blockedAt === null && screenMenuShape({ screen, tail: '' }) !== null;
        menuSince = menu ? (menuSince ?? now) : null;
        const appeared = blockedAt ?? menuSince;
        if (appeared !== null && (promptSeenAt === null || appeared > promptSeenAt)) promptSeenAt = appeared;
      }
      const evidence: PaneEvidence = {
        now,
        ptyId: inputs.ptyId,
        exited: inputs.exited(),
        rows,
        tail: inputs.screen.tail(),
        screen,
        waitBlockedAt: blockedAt,
        promptSeenAt,
        ...(title ? { title: { text: title.text, live: titleLive(), at: title.at } } : {}),
        ...(inputs.readForeground ? { probe: { read: inputs.readForeground } } : {}),
      };
      return evidence;
    },
    async evaluate(settleMaxMs) {
      await this.settle(settleMaxMs);
      return evaluatePane(this.evidence(), { wait: true });
    },
    async settle(maxMs) {
      if (inputs.screen.caughtUp()) return false;
      if (maxMs === undefined) {
        await inputs.screen.settled();
        return true;
      }
      // Why: under heavy output the emulator lags; a bounded wait never queues a verdict behind it.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        inputs.screen.settled(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, maxMs);
        }),
      ]);
      clearTimeout(timer);
      return true;
    },
    async analyse() {
      const evidence = this.evidence();
      const analysis = await analysePane(evidence, { wait: true });
      analysed.set(analysis, evidence);
      return analysis;
    },
    explain(analysis) {
      const evidence = analysis && analysed.get(analysis);
      // Why: the journal explains the very analysis a verdict was published from; evaluating again
      // cost a second fusion and foreground read per transition under a hook storm.
      if (analysis && evidence) return explainAnalysis(analysis, evidence);
      return explainPane(this.evidence(), { wait: true });
    },
    tuiIdle(opts) {
      return evaluateTuiIdle(this.evidence(), opts);
    },
    sendGuard(verdict, firstCheckAt) {
      // Why: fail closed — a menu-shaped block at the bottom refuses even when no rule named it.
      const menu = screenMenuShape({ screen: inputs.screen.renderedRows(), tail: inputs.screen.tail() });
      return evaluateSendGuard(verdict, { mode: 'inject', firstCheckAt, now: inputs.now(), menu });
    },
    finish() {
      const rest = osc.flush();
      if (rest.length > 0) inputs.screen.write(rest);
      if (recheckTimer) clearTimeout(recheckTimer);
      recheckTimer = null;
      if (dialogTimer) clearTimeout(dialogTimer);
      dialogTimer = null;
      stamp.reset();
      screenStamp.reset();
      waitBlockedAt = null;
    },
  };
}
