export { installTargets, planFor, TARGETS } from './plan-for.ts';
export type { Plan, Step, StepOp, Target, Transport, Violation, ViolationCode } from './types.ts';
export { VIOLATION_CODES } from './types.ts';
export { assertValidPlan, validatePlan } from './validate.ts';
