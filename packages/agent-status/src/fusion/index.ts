export {
  analysePane,
  type EvaluateOptions,
  evaluatePane,
  type ForegroundView,
  type PaneAnalysis,
  type ProbeAnswers,
  type VerdictRule,
} from './evaluate-pane.ts';
export {
  explainAnalysis,
  explainPane,
  type RecordedEvidence,
  replayExplanation,
  type VerdictAuthority,
  type VerdictExplanation,
} from './explain.ts';
export { dialogDrawGraceEndsAt, isPermissionRow, pendingDialogRowAt, pickExplicitRow } from './explicit-row.ts';
export {
  createProbeGate,
  type Delay,
  defaultProbeGate,
  type ProbeGate,
  type ProbeReading,
  timerDelay,
} from './probe-gate.ts';
export { isShellName, recognise } from './recognise.ts';
export { evaluateSendGuard, type SendGuardCode, type SendGuardResult, screenMenuShape } from './send-guard.ts';
export { evaluateTuiIdle, type TuiIdleContext, type TuiIdleResult } from './tui-idle.ts';
