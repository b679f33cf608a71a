import { findMenuShape } from '../screen/selection-menus.ts';
import type { PaneEvidence, PaneVerdict, StatusRow } from '../types.ts';
import {
  analysePane,
  type EvaluateOptions,
  evaluatePane,
  type PaneAnalysis,
  type VerdictRule,
} from './evaluate-pane.ts';
import { isPermissionRow } from './explicit-row.ts';
import { createProbeGate } from './probe-gate.ts';

/** Which kind of evidence decided a verdict. */
export type VerdictAuthority = 'hook' | 'osc' | 'title' | 'screen' | 'process' | 'none';

/** The evidence of a pane as stored for an explanation: no functions, the probe's answers kept. */
export interface RecordedEvidence extends Omit<PaneEvidence, 'probe'> {
  /** What the foreground probe answered (absent: the pane had no probe, or it was not read). */
  probeAnswers?: { read: string | null; confirm?: string | null };
}

/** Why a pane has its verdict: the rule, its authority, what it read and what it overrode. */
export interface VerdictExplanation {
  verdict: PaneVerdict;
  rule: VerdictRule;
  authority: VerdictAuthority;
  evidence: {
    /** The hook or OSC row the rule read (the newest one that counts). */
    row?: Pick<StatusRow, 'state' | 'source' | 'via' | 'receivedAt' | 'toolName' | 'dialog'>;
    /** The prompt found on the screen (or in the output tail), with the lines around it. */
    screen?: { reason: string; kind: string; anchor: string; lines: string[] };
    title?: { text: string; kind: string; live: boolean };
    /** What the foreground process was recognised as (read only when a rule needed it). */
    process?: { agent: string | null; shellOwns: boolean };
  };
  /** Other evidence that said something else and lost, in words. */
  overrode: string[];
  /** The screen shows the prompt or menu the wait is about (not only a hook's claim). */
  screenShowsPrompt: boolean;
}

const AUTHORITY: Readonly<Record<VerdictRule, VerdictAuthority | 'row'>> = {
  exited: 'process',
  'title-asks-permission': 'title',
  'screen-prompt': 'screen',
  'screen-prompt-agent-in-front': 'screen',
  'hook-row': 'row',
  'title-overrides-row': 'title',
  title: 'title',
  'title-proven-by-process': 'title',
  'composer-of-agent-in-front': 'process',
  'activity-of-agent-in-front': 'process',
  'status-line-of-agent-in-front': 'process',
  'status-line-overrides-row': 'process',
  'no-proof': 'none',
};

/** Lines of the match window around index `at` (3 before, 6 after). */
function around(lines: readonly { text: string }[], at: number): string[] {
  return lines.slice(Math.max(0, at - 3), at + 7).map((l) => l.text);
}

/**
 * Explains the verdict of `evidence`: the same evaluation as {@link evaluatePane}, plus the rule
 * that decided it, its authority, the evidence it read and what it overrode. Also returns the
 * evidence as recorded (the probe's answers kept), which {@link replayExplanation} evaluates again.
 *
 * @example
 * const { explanation } = await explainPane(evidence);
 * explanation.rule; // 'screen-prompt'
 */
export async function explainPane(
  evidence: PaneEvidence,
  options: EvaluateOptions = {},
): Promise<{ explanation: VerdictExplanation; recorded: RecordedEvidence }> {
  // Why: a gate of its own, so the probe read is this one (a shared gate may hand back another flight).
  const analysis = await analysePane(evidence, { ...options, gate: options.gate ?? createProbeGate() });
  return explainAnalysis(analysis, evidence);
}

/**
 * Explains an analysis {@link analysePane} already made of `evidence`, so a host that evaluated a
 * pane explains the verdict it published without evaluating the pane again (the probe's answers
 * are the ones that analysis read).
 *
 * @example
 * const analysis = await analysePane(evidence);
 * const { explanation } = await explainAnalysis(analysis, evidence);
 */
export async function explainAnalysis(
  analysis: PaneAnalysis,
  evidence: PaneEvidence,
): Promise<{ explanation: VerdictExplanation; recorded: RecordedEvidence }> {
  const { probe: _probe, ...rest } = evidence;
  const answers = analysis.probeAnswers();
  const { verdict, rule, explicit, signal, title, liveTitle, window } = analysis;
  const explanation: VerdictExplanation = {
    verdict,
    rule,
    authority: 'none',
    evidence: {},
    overrode: [],
    screenShowsPrompt: signal !== null || findMenuShape(window.lines) !== null,
  };
  const authority = AUTHORITY[rule];
  explanation.authority = authority === 'row' ? (explicit?.via === 'osc' ? 'osc' : 'hook') : authority;
  if (explicit) {
    explanation.evidence.row = {
      state: explicit.state,
      source: explicit.source,
      via: explicit.via,
      receivedAt: explicit.receivedAt,
      ...(explicit.toolName ? { toolName: explicit.toolName } : {}),
      ...(explicit.dialog ? { dialog: true as const } : {}),
    };
  }
  if (signal) {
    explanation.evidence.screen = {
      reason: signal.reason,
      kind: signal.kind,
      anchor: signal.line,
      lines: around(window.lines, signal.index),
    };
  }
  if (rest.title && typeof rest.title.text === 'string')
    explanation.evidence.title = { text: rest.title.text, kind: title.kind, live: liveTitle };
  if (answers !== undefined) {
    const fg = await analysis.foreground();
    explanation.evidence.process = { agent: fg.agent, shellOwns: fg.shellOwns };
  }
  const rowWords = explicit ? `a ${explicit.via} row (${explicit.source}: ${explicit.state})` : '';
  const screenDecided = rule === 'screen-prompt' || rule === 'screen-prompt-agent-in-front';
  if (explicit && !isPermissionRow(explicit) && (screenDecided || rule === 'title-asks-permission'))
    explanation.overrode.push(rowWords);
  if (explicit && (rule === 'title-overrides-row' || rule === 'status-line-overrides-row'))
    explanation.overrode.push(rowWords);
  if (rule === 'hook-row' && title.status !== null && title.status !== verdict.status)
    explanation.overrode.push(`the title (${title.status})`);
  if (signal && !screenDecided)
    explanation.overrode.push(`a ${signal.reason} prompt on the screen (not proven live: cleared by newer evidence)`);
  const recorded: RecordedEvidence = {
    ...rest,
    ...(answers !== undefined ? { probeAnswers: { ...answers } } : {}),
  };
  return { explanation, recorded };
}

/**
 * Evaluates recorded evidence again (the probe answering what it answered then): the verdict an
 * explanation claims, when the engine has not changed.
 */
export function replayExplanation(recorded: RecordedEvidence, options: EvaluateOptions = {}): Promise<PaneVerdict> {
  const { probeAnswers, ...rest } = recorded;
  if (!probeAnswers) return evaluatePane(rest, options);
  return evaluatePane(
    {
      ...rest,
      probe: {
        read: async () => probeAnswers.read,
        ...(probeAnswers.confirm !== undefined ? { confirm: async () => probeAnswers.confirm ?? null } : {}),
      },
    },
    options,
  );
}
