import type { AgentId } from '../agent-ids.ts';
import { validRowList } from '../hooks/row-schema.ts';
import { PERMISSION_DIALOG_DRAW_GRACE_MS, SPINNER_FRAME_AFTER_DONE_MS } from '../limits.ts';
import { type BlockedSignal, findBlockedSignal } from '../screen/blocked-signal.ts';
import { activityAtBottom, composerAtBottom, restingAtBottom } from '../screen/composers.ts';
import { buildMatchWindow, type MatchWindow, screenHasContent } from '../screen/match-window.ts';
import { findMenuShape } from '../screen/selection-menus.ts';
import { classifyTitle, type TitleClass } from '../title/classify-title.ts';
import type { AgentStatus, AgentWait, PaneEvidence, PaneVerdict, StatusRow } from '../types.ts';
import { isPermissionRow, pendingDialogRowAt, pickExplicitRow } from './explicit-row.ts';
import {
  type ForegroundReader,
  type ForegroundView,
  NO_PROBE,
  type ProbeAnswers,
  readForeground,
} from './foreground-read.ts';
import { defaultProbeGate, type ProbeGate } from './probe-gate.ts';
import { assertEvidence } from './validate-evidence.ts';

/** Options of {@link evaluatePane}. */
export interface EvaluateOptions {
  /** Evaluate `agentWait` (default true); false leaves it absent. */
  wait?: boolean;
  /** Probe gate (default: one module-level gate bounded by `PROBE_TIMEOUT_MS`). */
  gate?: ProbeGate;
}

/** Which §7 rule decided a verdict (stable ids: `orca status explain` prints them). */
export type VerdictRule =
  | 'exited'
  | 'title-asks-permission'
  | 'screen-prompt'
  | 'screen-prompt-agent-in-front'
  | 'hook-row'
  | 'title-overrides-row'
  | 'title'
  | 'title-proven-by-process'
  | 'composer-of-agent-in-front'
  | 'activity-of-agent-in-front'
  | 'status-line-of-agent-in-front'
  | 'status-line-overrides-row'
  | 'no-proof';

export type { ForegroundView, ProbeAnswers } from './foreground-read.ts';

/** Everything fusion derived for one pane; tui-idle reuses it. */
export interface PaneAnalysis {
  verdict: PaneVerdict;
  rule: VerdictRule;
  window: MatchWindow;
  signal: BlockedSignal | null;
  title: TitleClass;
  liveTitle: boolean;
  explicit: StatusRow | undefined;
  foreground(): Promise<ForegroundView>;
  /** What the foreground probe answered, when this evaluation read it (for recorded evidence). */
  probeAnswers(): ProbeAnswers | undefined;
}

const NO_TITLE: TitleClass = { status: null, agent: null, kind: 'none' };
const AGENT_GROUPS: readonly (readonly AgentId[])[] = [
  ['pi', 'omp'],
  ['opencode', 'mimo-code'],
];

function sameGroup(a: AgentId, b: AgentId): boolean {
  if (a === b) return true;
  return AGENT_GROUPS.some((g) => g.includes(a) && g.includes(b));
}

function mapRow(row: StatusRow): AgentStatus {
  if (row.state === 'working') return 'working';
  if (row.state === 'done') return 'idle';
  return 'permission';
}

/**
 * Fuse hooks, OSC rows, the title, the screen and the foreground process of one pane into a
 * verdict (§7). Pure: time comes from `e.now`; the probe is read through the gate at most once.
 *
 * @example
 * const v = await evaluatePane({ now: 5000, ptyId: 'p1', waitBlockedAt: null,
 *   title: { text: '✳ Claude Code', live: true, at: 4000 } });
 * // { status: 'idle', isRunningAgent: true, agentWait: null }
 */
export function evaluatePane(e: PaneEvidence, options: EvaluateOptions = {}): Promise<PaneVerdict> {
  // Why: without a probe nothing awaits, so the verdict is decided synchronously and handed back
  // already resolved; contract violations still surface as a rejection, never a synchronous throw.
  try {
    const facts = gatherFacts(e, options);
    const decided = decide(facts, facts.probed ? undefined : NO_PROBE);
    if (decided !== NEEDS_FOREGROUND) return Promise.resolve(decided.verdict);
    return facts.foreground().then((fg) => decideWith(facts, fg).verdict);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** {@link evaluatePane} plus what it derived on the way (for tui-idle and tooling). */
export function analysePane(e: PaneEvidence, options: EvaluateOptions = {}): Promise<PaneAnalysis> {
  try {
    const facts = gatherFacts(e, options);
    const decided = decide(facts, facts.probed ? undefined : NO_PROBE);
    if (decided !== NEEDS_FOREGROUND) return Promise.resolve(decided);
    return facts.foreground().then((fg) => decideWith(facts, fg));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Everything of one evaluation that does not depend on the foreground process. */
interface PaneFacts {
  e: PaneEvidence;
  wait: boolean;
  probed: boolean;
  foreground: ForegroundReader;
  window: MatchWindow;
  signal: BlockedSignal | null;
  title: TitleClass;
  liveTitle: boolean;
  explicit: StatusRow | undefined;
  explicitIsPermission: boolean;
  titleAsksPermission: boolean;
  signalHolds: boolean;
  /** No stamp and nothing cleared it: the signal holds iff a known agent is in front (fail closed). */
  signalHoldsIfAgent: boolean;
  /** A live title newer than the explicit (non-permission) row says what the agent does now. */
  titleOverridesRow: boolean;
  titleOverrideStatus: AgentStatus;
  /** The agent's own status line says it is at rest, over a `working` row (Copilot CLI). */
  statusLineEndedTurn: boolean;
}

const NEEDS_FOREGROUND = Symbol('needs-foreground');

function gatherFacts(e: PaneEvidence, options: EvaluateOptions): PaneFacts {
  assertEvidence(e);
  const wait = options.wait ?? true;
  const foreground = readForeground(e, options.gate ?? defaultProbeGate);
  const window = buildMatchWindow(e);
  const signal = findBlockedSignal(window);
  const title = e.title && typeof e.title.text === 'string' ? classifyTitle(e.title.text) : NO_TITLE;
  const liveTitle = e.title !== undefined && e.title.live === true && e.title.restored !== true;
  const titleAt = e.title && typeof e.title.at === 'number' && Number.isFinite(e.title.at) ? e.title.at : null;
  const facts: PaneFacts = {
    e,
    wait,
    probed: Boolean(e.probe),
    foreground,
    window,
    signal,
    title,
    liveTitle,
    explicit: undefined,
    explicitIsPermission: false,
    titleAsksPermission: false,
    signalHolds: false,
    signalHoldsIfAgent: false,
    titleOverridesRow: false,
    titleOverrideStatus: null,
    statusLineEndedTurn: false,
  };
  if (e.exited === true) return facts;

  const rows = validRowList(e.rows as readonly unknown[] | undefined);
  const livePermissionTitle = liveTitle && title.status === 'permission';
  // Why: the agent draws its dialog a moment after the hook; until then a screen without one heals
  // nothing. A dialog the host saw drawn after the row, and gone now, was answered: no grace left.
  const dialogBeingDrawn = (): boolean => {
    const at = pendingDialogRowAt(rows);
    if (at === null || e.now - at >= PERMISSION_DIALOG_DRAW_GRACE_MS) return false;
    return !(typeof e.promptSeenAt === 'number' && e.promptSeenAt >= at);
  };
  const healOnScreen =
    screenHasContent(e.screen) &&
    signal === null &&
    !livePermissionTitle &&
    !dialogBeingDrawn() &&
    findMenuShape(window.lines) === null;
  const explicit = pickExplicitRow(rows, e.now, healOnScreen);
  const explicitIsPermission = explicit !== undefined && isPermissionRow(explicit);
  facts.explicit = explicit;
  facts.explicitIsPermission = explicitIsPermission;
  facts.titleAsksPermission =
    livePermissionTitle &&
    !(explicit && !explicitIsPermission && titleAt !== null && explicit.stateStartedAt > titleAt) &&
    !(explicit && !explicitIsPermission && titleAt === null);
  const authority = signal === null ? 'no' : holds(signal, e, explicit, title, liveTitle, titleAt);
  facts.signalHolds = authority === 'yes';
  // Why: a live rendered screen with a prompt and no stamp (a host without a screen stamp, a
  // first evaluation) fails closed when the process in front is a known agent.
  facts.signalHoldsIfAgent = authority === 'unstamped' && window.from === 'screen' && e.probe !== undefined;
  // Why: Claude Code fires no hook when a turn is interrupted (Esc), so its working row outlives the
  // turn; the agent's own explicit title set after that row says what it does now.
  const titleNewer =
    explicit !== undefined && !explicitIsPermission && liveTitle && titleAt !== null && titleAt > explicit.receivedAt;
  const explicitTitle = title.kind === 'explicit' && (title.status === 'idle' || title.status === 'working');
  // Why: Codex fires no hook when a turn is interrupted or fails; it drops the spinner from its
  // title instead (a plain title after the working row) and shows its composer.
  const plainTitleEndedTurn =
    explicit?.state === 'working' &&
    title.kind === 'none' &&
    signal === null &&
    composerAtBottom(explicit.source, window.lines);
  // Why: Codex 0.171 draws one more spinner frame in its title ~5 ms after its Stop hook (agents
  // lab recording); a working title that soon after a done row is that frame, not a new turn.
  const lastFrameAfterDone =
    explicit?.state === 'done' &&
    title.status === 'working' &&
    titleAt !== null &&
    titleAt - explicit.receivedAt < SPINNER_FRAME_AFTER_DONE_MS;
  facts.titleOverridesRow = titleNewer && !lastFrameAfterDone && (explicitTitle || plainTitleEndedTurn);
  facts.titleOverrideStatus = explicitTitle ? title.status : 'idle';
  // Why: Copilot CLI 1.0.102 fires no hook when a turn ends in an API error (a `recoverable`
  // ErrorOccurred, then nothing) and never changes its name-only title; its status line does.
  facts.statusLineEndedTurn =
    explicit?.state === 'working' && signal === null && restingAtBottom(explicit.source, window.lines);
  return facts;
}

function analysisOf(
  f: PaneFacts,
  status: AgentStatus,
  isRunningAgent: boolean,
  agentWait: AgentWait | null | undefined,
  rule: VerdictRule,
): PaneAnalysis {
  return {
    rule,
    window: f.window,
    signal: f.signal,
    title: f.title,
    liveTitle: f.liveTitle,
    foreground: f.foreground,
    probeAnswers: f.foreground.answers,
    explicit: f.explicit,
    verdict: agentWait === undefined ? { status, isRunningAgent } : { status, isRunningAgent, agentWait },
  };
}

function decideWith(f: PaneFacts, fg: ForegroundView): PaneAnalysis {
  const decided = decide(f, fg);
  // Why: with the foreground known, decide never asks for it again.
  if (decided === NEEDS_FOREGROUND) return analysisOf(f, null, fg.agent !== null, undefined, 'no-proof');
  return decided;
}

/**
 * The §7 verdict. `fg` is the foreground view when known (no probe → {@link NO_PROBE}); when a rule
 * needs it and it is not known yet, returns {@link NEEDS_FOREGROUND} and the caller reads the probe.
 */
function decide(f: PaneFacts, fg: ForegroundView | undefined): PaneAnalysis | typeof NEEDS_FOREGROUND {
  const { e, wait, signal, title, explicit, explicitIsPermission } = f;
  if (e.exited === true) return analysisOf(f, null, false, undefined, 'exited');

  // agentWait for the branches that do not depend on the foreground
  let waitValue: AgentWait | null | undefined;
  if (wait) {
    if (f.signalHolds && signal) {
      waitValue =
        e.waitBlockedAt === null
          ? { source: 'prompt-text', reason: signal.reason }
          : { source: 'prompt-text', reason: signal.reason, since: e.waitBlockedAt };
    } else if (f.titleAsksPermission) waitValue = { source: 'title' };
    else if (!explicitIsPermission) waitValue = null;
  }

  if (f.titleAsksPermission || f.signalHolds)
    return analysisOf(f, 'permission', true, waitValue, f.signalHolds ? 'screen-prompt' : 'title-asks-permission');
  if (f.signalHoldsIfAgent && signal) {
    if (fg === undefined) return NEEDS_FOREGROUND;
    if (fg.agent !== null) {
      return analysisOf(
        f,
        'permission',
        true,
        wait ? { source: 'prompt-text', reason: signal.reason } : undefined,
        'screen-prompt-agent-in-front',
      );
    }
  }

  if (explicit) {
    const titleVetoes = title.kind === 'shell' || title.kind === 'management';
    if (!titleVetoes && fg === undefined) return NEEDS_FOREGROUND;
    const view = titleVetoes ? undefined : fg;
    const running = !titleVetoes && view !== undefined && !view.shellOwns;
    if (wait && explicitIsPermission) {
      if (view?.unreadable) waitValue = undefined;
      else waitValue = running ? { source: 'hook', since: explicit.receivedAt } : null;
    }
    const ended = !f.titleOverridesRow && f.statusLineEndedTurn && view?.agent === explicit.source;
    const status = f.titleOverridesRow ? f.titleOverrideStatus : ended ? 'idle' : mapRow(explicit);
    const rule = f.titleOverridesRow ? 'title-overrides-row' : ended ? 'status-line-overrides-row' : 'hook-row';
    return analysisOf(f, running ? status : null, running, waitValue, rule);
  }

  if (title.status !== null && e.title) {
    // Why: a title whose setter left the foreground (not live) is as stale as a restored one: an
    // exited agent's `✋` title must not hold the pane (issue 12) unless that agent is in front again.
    const stale = e.title.restored === true || e.title.live !== true;
    const needsProof = title.kind === 'opencode-native' || title.kind === 'activity-only' || stale;
    // Why: Copilot CLI's title is its name alone whatever it does, and no hook says when an approved
    // tool starts to run (its dialog row healed); its status line (`Working … esc esc interrupt`) does.
    if (!stale && title.kind === 'name-only' && signal === null && title.agent !== null) {
      if (activityAtBottom(title.agent, f.window.lines)) {
        if (fg === undefined) return NEEDS_FOREGROUND;
        if (fg.agent === title.agent) return analysisOf(f, 'working', true, waitValue, 'status-line-of-agent-in-front');
      }
    }
    if (!needsProof) return analysisOf(f, title.status, true, waitValue, 'title');
    if (fg === undefined) return NEEDS_FOREGROUND;
    const proven = fg.agent !== null && (!stale || title.agent === null || sameGroup(title.agent, fg.agent));
    if (proven) return analysisOf(f, title.status, true, waitValue, 'title-proven-by-process');
  }

  if (fg === undefined) return NEEDS_FOREGROUND;
  // Why: before its first hook or title (Codex titles its window with the folder name), a known
  // agent in front showing its own composer and no prompt is at its prompt.
  if (fg.agent !== null && signal === null && composerAtBottom(fg.agent, f.window.lines)) {
    return analysisOf(f, 'idle', true, waitValue, 'composer-of-agent-in-front');
  }
  // Why: Droid fires no hook when its approval is answered and its title never says what it does;
  // while the approved tool runs (its dialog row healed) only its own in-progress line says so.
  if (fg.agent !== null && signal === null && activityAtBottom(fg.agent, f.window.lines)) {
    return analysisOf(f, 'working', true, waitValue, 'activity-of-agent-in-front');
  }
  return analysisOf(f, null, fg.agent !== null, waitValue, 'no-proof');
}

/**
 * §7 blocked-text authority: does this signal prove a live wait? `unstamped`: a modal signal with
 * no stamp and no permission row, and nothing that could clear it — it holds only if a known agent
 * is in front (decided by the caller, which owns the foreground read).
 */
function holds(
  signal: BlockedSignal,
  e: PaneEvidence,
  explicit: StatusRow | undefined,
  title: TitleClass,
  liveTitle: boolean,
  titleAt: number | null,
): 'yes' | 'no' | 'unstamped' {
  const explicitIsPermission = explicit !== undefined && isPermissionRow(explicit);
  if (signal.kind === 'approval') {
    const stamp = e.waitBlockedAt;
    const dropped = explicit && !explicitIsPermission && stamp !== null && stamp > 0 && explicit.stateStartedAt > stamp;
    return dropped ? 'no' : 'yes';
  }
  const permCandidates: number[] = [];
  if (e.waitBlockedAt !== null) permCandidates.push(e.waitBlockedAt);
  if (explicit && explicitIsPermission) permCandidates.push(explicit.receivedAt);
  const clearAt = modalClearAt(explicit, explicitIsPermission, title, liveTitle, titleAt);
  if (permCandidates.length === 0) return clearAt === Number.NEGATIVE_INFINITY ? 'unstamped' : 'no';
  return Math.max(...permCandidates) >= clearAt ? 'yes' : 'no';
}

/** The latest evidence that clears a modal signal (−∞: none). */
function modalClearAt(
  explicit: StatusRow | undefined,
  explicitIsPermission: boolean,
  title: TitleClass,
  liveTitle: boolean,
  titleAt: number | null,
): number {
  let clearAt = Number.NEGATIVE_INFINITY;
  if (explicit && !explicitIsPermission) clearAt = explicit.receivedAt;
  if (
    liveTitle &&
    title.kind !== 'opencode-native' &&
    title.status !== null &&
    title.status !== 'permission' &&
    titleAt !== null
  ) {
    clearAt = Math.max(clearAt, titleAt);
  }
  return clearAt;
}
