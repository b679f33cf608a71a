import type { AgentDescriptor } from '../agents/descriptor.ts';
import { getAgent } from '../agents/registry.ts';
import { HookTemplatesError } from '../errors.ts';
import type { Plan, Step, Target } from './types.ts';

/** Every supported target. */
export const TARGETS: readonly Target[] = [
  { os: 'posix', dialect: 'sh' },
  { os: 'windows', dialect: 'sh' },
  { os: 'windows', dialect: 'batch' },
  { os: 'windows', dialect: 'pwsh' },
];

/** The targets an agent's installer writes scripts for (POSIX sh + its Windows dialect). */
export function installTargets(d: AgentDescriptor): readonly Target[] {
  return [
    { os: 'posix', dialect: 'sh' },
    { os: 'windows', dialect: d.windowsDialect },
  ];
}

function isSupported(target: Target): boolean {
  return TARGETS.some((t) => t.os === target.os && t.dialect === target.dialect);
}

/**
 * The plan for `agent` on `target` (spec §3 order). POSIX host: protocolOutput? captureStdin
 * skipIf* recoverEnv? spool refreshEndpoint guardEnv post exit. Windows host: protocolOutput?
 * refreshEndpoint guardEnv skipIf(holdsStdin)* captureStdin skipIf* post exit.
 *
 * @example
 * const plan = planFor('claude', { os: 'posix', dialect: 'sh' });
 * emitPosix(plan);
 */
export function planFor(agent: string, target: Target): Plan {
  const d = getAgent(agent);
  if (!isSupported(target)) {
    throw new HookTemplatesError('ORCA_HOOKS_UNSUPPORTED_TARGET', `unsupported target ${target.os}/${target.dialect}`, {
      context: {
        target,
      },
    });
  }
  const sh = target.dialect === 'sh';
  const steps: Step[] = [];
  if (d.protocol !== null) steps.push({ op: 'protocolOutput', out: d.protocol });
  const capture: Step =
    sh && target.os === 'posix'
      ? { op: 'captureStdin', policy: d.capture, ...(d.boundedIf !== undefined ? { boundedIf: d.boundedIf } : {}) }
      : { op: 'captureStdin', policy: d.capture === 'emptyAsObject' ? 'emptyAsObject' : 'required' };
  const post: Step = {
    op: 'post',
    source: d.source,
    transport: sh && d.extras.length === 0 ? 'raw-json-v1' : 'form',
    extras: d.extras,
    maxTimeS: d.maxTimeS,
  };
  if (target.os === 'posix') {
    steps.push(capture);
    for (const s of d.skips) steps.push({ op: 'skipIf', env: s.env, holdsStdin: s.holdsStdin });
    if (d.recoverEnv) steps.push({ op: 'recoverEnv' });
    steps.push({ op: 'spool' }, { op: 'refreshEndpoint' }, { op: 'guardEnv' }, post, { op: 'exit' });
  } else {
    steps.push({ op: 'refreshEndpoint' }, { op: 'guardEnv' });
    for (const s of d.skips) if (s.holdsStdin) steps.push({ op: 'skipIf', env: s.env, holdsStdin: true });
    steps.push(capture);
    for (const s of d.skips) if (!s.holdsStdin) steps.push({ op: 'skipIf', env: s.env, holdsStdin: false });
    steps.push(post, { op: 'exit' });
  }
  return { agent: d.id, target, steps };
}
