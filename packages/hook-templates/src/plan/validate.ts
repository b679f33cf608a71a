import { HookTemplatesError } from '../errors.ts';
import type { Plan, Step, StepOp, Violation } from './types.ts';

function indexesOf(steps: readonly Step[], op: StepOp): number[] {
  const out: number[] = [];
  steps.forEach((s, i) => {
    if (s.op === op) out.push(i);
  });
  return out;
}

function checkCommon(plan: Plan, v: Violation[]): void {
  const { steps } = plan;
  const captures = indexesOf(steps, 'captureStdin');
  if (captures.length !== 1) v.push({ code: 'capture-count', detail: `${captures.length} captureStdin steps` });
  const exits = indexesOf(steps, 'exit');
  if (exits.length !== 1 || exits[0] !== steps.length - 1) {
    v.push({
      code: 'exit-not-last',
      step: exits.find((i) => i !== steps.length - 1),
      detail: 'exactly one exit, last',
    });
  }
  const refresh = indexesOf(steps, 'refreshEndpoint');
  const guard = indexesOf(steps, 'guardEnv');
  const post = indexesOf(steps, 'post');
  const spool = indexesOf(steps, 'spool');
  const [r, g, p] = [refresh[0], guard[0], post[0]];
  if (
    refresh.length !== 1 ||
    guard.length !== 1 ||
    post.length !== 1 ||
    r === undefined ||
    g === undefined ||
    p === undefined ||
    !(r < g && g < p)
  ) {
    v.push({ code: 'order', detail: 'one refreshEndpoint, guardEnv, post in that order' });
  }
  if (spool.length > 1 || (spool[0] !== undefined && g !== undefined && spool[0] > g)) {
    v.push({ code: 'order', step: spool[0], detail: 'spool (at most one) before guardEnv' });
  }
  const outputs = indexesOf(steps, 'protocolOutput');
  if (outputs.length > 1 || (outputs[0] !== undefined && outputs[0] !== 0)) {
    v.push({ code: 'order', step: outputs[0], detail: 'protocolOutput at most once, first' });
  }
  const c = captures[0];
  const recover = indexesOf(steps, 'recoverEnv');
  if (recover.length > 1 || recover.some((i) => c === undefined || i < c)) {
    v.push({ code: 'recover-before-capture', step: recover[0], detail: 'recoverEnv once, after captureStdin' });
  }
  const postStep = p === undefined ? undefined : steps[p];
  if (postStep?.op === 'post' && postStep.transport === 'raw-json-v1' && postStep.extras.length > 0) {
    v.push({ code: 'transport-extras', step: p, detail: 'raw-json-v1 cannot carry extra fields' });
  }
  if (plan.target.dialect !== 'sh') {
    steps.forEach((s, i) => {
      const bad =
        (s.op === 'captureStdin' && (s.policy === 'firstJsonValue' || s.boundedIf !== undefined)) ||
        s.op === 'spool' ||
        s.op === 'recoverEnv' ||
        (s.op === 'post' && s.transport === 'raw-json-v1');
      if (bad) v.push({ code: 'unsupported', step: i, detail: `${s.op} is not supported in ${plan.target.dialect}` });
    });
  }
}

function checkPosixHost(steps: readonly Step[], v: Violation[]): void {
  const c = steps.findIndex((s) => s.op === 'captureStdin');
  const limit = c === -1 ? steps.length : c;
  for (let i = 0; i < limit; i++) {
    if (steps[i]?.op !== 'protocolOutput') {
      v.push({ code: 'step-before-capture', step: i, detail: `${steps[i]?.op} before captureStdin` });
      return;
    }
  }
}

function checkWindowsHost(steps: readonly Step[], v: Violation[]): void {
  const c = steps.findIndex((s) => s.op === 'captureStdin');
  const g = steps.findIndex((s) => s.op === 'guardEnv');
  if (c !== -1 && (g === -1 || c < g))
    v.push({ code: 'read-before-guard', step: c, detail: 'captureStdin before guardEnv' });
  steps.forEach((s, i) => {
    if (s.op === 'skipIf' && s.holdsStdin && c !== -1 && i > c) {
      v.push({ code: 'read-before-guard', step: i, detail: `stdin read before the holdsStdin skip on ${s.env}` });
    }
  });
}

/**
 * Every contract violation of `plan` (empty ⇒ valid). The validator, not the emitters, is what
 * makes a contract-breaking script impossible: plans may be hand-built.
 *
 * @example
 * validatePlan(planFor('codex', { os: 'posix', dialect: 'sh' })) // []
 */
export function validatePlan(plan: Plan): Violation[] {
  const v: Violation[] = [];
  checkCommon(plan, v);
  if (plan.target.os === 'posix') checkPosixHost(plan.steps, v);
  else checkWindowsHost(plan.steps, v);
  return v;
}

/** Throws `ORCA_HOOKS_PLAN_INVALID` (context: violations) unless `plan` is valid. */
export function assertValidPlan(plan: Plan): void {
  const violations = validatePlan(plan);
  if (violations.length > 0) {
    throw new HookTemplatesError(
      'ORCA_HOOKS_PLAN_INVALID',
      `plan for ${plan.agent} (${plan.target.os}/${plan.target.dialect}) breaks the stdin contract: ${violations.map((x) => x.code).join(', ')}`,
      { context: { violations } },
    );
  }
}
