import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../agents/sources.ts';
import { emitScript } from '../emit/script.ts';
import { HookTemplatesError } from '../errors.ts';
import { planFor, TARGETS } from './plan-for.ts';
import type { Plan, Step, Target } from './types.ts';
import { validatePlan } from './validate.ts';

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ op: 'protocolOutput', out: { fixed: '{}' } }),
  fc.constantFrom<Step>(
    { op: 'captureStdin', policy: 'required' },
    { op: 'captureStdin', policy: 'emptyAsObject' },
    { op: 'captureStdin', policy: 'firstJsonValue' },
    { op: 'captureStdin', policy: 'required', boundedIf: 'GROK_HOOK_EVENT' },
  ),
  fc.constantFrom<Step>({ op: 'skipIf', env: 'A', holdsStdin: true }, { op: 'skipIf', env: 'B', holdsStdin: false }),
  fc.constantFrom<Step>(
    { op: 'recoverEnv' },
    { op: 'spool' },
    { op: 'refreshEndpoint' },
    { op: 'guardEnv' },
    { op: 'exit' },
  ),
  fc.constantFrom<Step>(
    { op: 'post', source: 'codex', transport: 'form', extras: [], maxTimeS: 1.5 },
    { op: 'post', source: 'codex', transport: 'raw-json-v1', extras: [], maxTimeS: 1.5 },
    {
      op: 'post',
      source: 'grok',
      transport: 'raw-json-v1',
      extras: [{ field: 'grokHome', env: 'GROK_HOME' }],
      maxTimeS: 8,
    },
  ),
);
const targetArb = fc.constantFrom<Target>(...TARGETS);
const ops = (plan: Plan) => plan.steps.map((s) => s.op);

/** The C1–C4 properties of an accepted plan, stated independently of the validator. */
function satisfiesContract(plan: Plan): boolean {
  const o = ops(plan);
  const c = o.indexOf('captureStdin');
  if (o.filter((x) => x === 'captureStdin').length !== 1) return false; // C1: exactly once
  if (o.lastIndexOf('exit') !== o.length - 1 || o.filter((x) => x === 'exit').length !== 1) return false; // C1: one exit path at the end
  if (o.filter((x) => x === 'protocolOutput').length > 1 || (o.includes('protocolOutput') && o[0] !== 'protocolOutput'))
    return false; // C4
  if (plan.target.os === 'posix') return o.slice(0, c).every((x) => x === 'protocolOutput'); // C2
  const g = o.indexOf('guardEnv'); // C3: guard before stdin; holdsStdin skips before capture
  return g !== -1 && g < c && plan.steps.every((s, i) => !(s.op === 'skipIf' && s.holdsStdin && i > c));
}

describe('validatePlan', () => {
  it('every registry plan validates and emits', () => {
    for (const agent of AGENT_IDS) {
      for (const target of TARGETS) {
        const plan = planFor(agent, target);
        expect({ agent, target, v: validatePlan(plan) }).toEqual({ agent, target, v: [] });
        expect(emitScript(plan).length).toBeGreaterThan(0);
      }
    }
  });

  it('accepted random plans satisfy C1–C4 for their host', () => {
    fc.assert(
      fc.property(targetArb, fc.array(stepArb, { maxLength: 12 }), (target, steps) => {
        const plan: Plan = { agent: 'codex', target, steps };
        if (validatePlan(plan).length === 0) expect(satisfiesContract(plan)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('emitters refuse any plan the validator rejects', () => {
    fc.assert(
      fc.property(targetArb, fc.array(stepArb, { maxLength: 10 }), (target, steps) => {
        const plan: Plan = { agent: 'codex', target, steps };
        if (validatePlan(plan).length === 0) return;
        expect(() => emitScript(plan)).toThrow(HookTemplatesError);
        try {
          emitScript(plan);
        } catch (e) {
          expect((e as HookTemplatesError).code).toBe('ORCA_HOOKS_PLAN_INVALID');
        }
      }),
      { numRuns: 500 },
    );
  });

  const posix: Target = { os: 'posix', dialect: 'sh' };
  const win: Target = { os: 'windows', dialect: 'batch' };
  const good = planFor('codex', posix).steps;
  const codes = (plan: Plan) => [...new Set(validatePlan(plan).map((v) => v.code))].sort();
  const cases: [string, Plan, string[]][] = [
    [
      'capture-count',
      { agent: 'codex', target: posix, steps: good.filter((s) => s.op !== 'captureStdin') },
      ['capture-count', 'step-before-capture'],
    ],
    [
      'step-before-capture',
      { agent: 'codex', target: posix, steps: [{ op: 'guardEnv' }, ...good.filter((s) => s.op !== 'guardEnv')] },
      ['order', 'step-before-capture'],
    ],
    [
      'read-before-guard',
      {
        agent: 'codex',
        target: win,
        steps: [
          good[0] as Step,
          { op: 'captureStdin', policy: 'required' },
          ...planFor('codex', win)
            .steps.slice(1)
            .filter((s) => s.op !== 'captureStdin'),
        ],
      },
      ['read-before-guard'],
    ],
    ['order', { agent: 'codex', target: posix, steps: good.filter((s) => s.op !== 'refreshEndpoint') }, ['order']],
    [
      'unsupported',
      {
        agent: 'grok',
        target: win,
        steps: planFor('grok', win).steps.map((s) =>
          s.op === 'captureStdin' ? { ...s, policy: 'firstJsonValue' as const } : s,
        ),
      },
      ['unsupported'],
    ],
    [
      'transport-extras',
      {
        agent: 'grok',
        target: posix,
        steps: planFor('grok', posix).steps.map((s) =>
          s.op === 'post' ? { ...s, transport: 'raw-json-v1' as const } : s,
        ),
      },
      ['transport-extras'],
    ],
    [
      'exit-not-last',
      { agent: 'codex', target: posix, steps: [...good.slice(0, 2), { op: 'exit' }, ...good.slice(2)] },
      ['exit-not-last'],
    ],
  ];
  it.each(cases)('rejects %s', (_name, plan, want) => {
    expect(codes(plan)).toEqual(want);
  });

  it('rejects recoverEnv before capture', () => {
    const steps = planFor('command-code', posix).steps.filter((s) => s.op !== 'recoverEnv');
    expect(codes({ agent: 'command-code', target: posix, steps: [{ op: 'recoverEnv' }, ...steps] })).toEqual([
      'recover-before-capture',
      'step-before-capture',
    ]);
  });

  it('spool after guard is an order violation', () => {
    const steps = good.filter((s) => s.op !== 'spool');
    const g = steps.findIndex((s) => s.op === 'guardEnv');
    expect(
      codes({
        agent: 'codex',
        target: posix,
        steps: [...steps.slice(0, g + 1), { op: 'spool' }, ...steps.slice(g + 1)],
      }),
    ).toEqual(['order']);
  });
});
