import { getAgent } from '../agents/registry.ts';
import { HookTemplatesError } from '../errors.ts';
import { planFor } from '../plan/plan-for.ts';
import type { Plan, Target } from '../plan/types.ts';
import { emitBatch } from './batch.ts';
import { emitPosix } from './posix.ts';
import { emitPwsh } from './pwsh.ts';

/**
 * The script text of a plan in its target's dialect.
 *
 * @example
 * emitScript(planFor('grok', { os: 'posix', dialect: 'sh' })).startsWith('#!/bin/sh\n') // true
 */
export function emitScript(plan: Plan): string {
  switch (plan.target.dialect) {
    case 'sh':
      return emitPosix(plan);
    case 'batch':
      return emitBatch(plan);
    case 'pwsh':
      return emitPwsh(plan);
    default:
      throw new HookTemplatesError('ORCA_HOOKS_UNSUPPORTED_TARGET', 'unknown dialect');
  }
}

/** `<stem>-hook.<sh|cmd|ps1>` for `agent` on `target`. */
export function scriptFileName(agent: string, target: Target): string {
  const d = getAgent(agent);
  const ext = target.dialect === 'sh' ? 'sh' : target.dialect === 'batch' ? 'cmd' : 'ps1';
  return `${d.scriptStem}-hook.${ext}`;
}

/** Shorthand: the script of `agent` for `target` (plans with {@link planFor}). */
export function emitFor(agent: string, target: Target): string {
  return emitScript(planFor(agent, target));
}
