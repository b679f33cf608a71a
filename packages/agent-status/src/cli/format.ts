import { printableField as p, terminalSafeJson } from '@orca/shared/printable';
import type { SendGuardResult } from '../fusion/send-guard.ts';
import type { TuiIdleResult } from '../fusion/tui-idle.ts';
import type { TitleClass } from '../title/classify-title.ts';
import type { PaneVerdict } from '../types.ts';

/** JSON of a verdict: `agentWait` omitted when absent, `null` when evaluated with no proof. */
export function verdictJson(verdict: PaneVerdict, extra?: { tuiIdle: TuiIdleResult; guard: SendGuardResult }): string {
  const out: Record<string, unknown> = { status: verdict.status, isRunningAgent: verdict.isRunningAgent };
  if ('agentWait' in verdict && verdict.agentWait !== undefined) out.agentWait = verdict.agentWait;
  if (extra) {
    out.tuiIdle = extra.tuiIdle;
    out.guard = extra.guard;
  }
  return terminalSafeJson(out);
}

/**
 * One plain line: `permission running prompt-text agent-approval-prompt since=1700`. Hook fields
 * (a wait reason) come from outside: control characters are escaped (`\x1b`).
 */
export function verdictLine(verdict: PaneVerdict, extra?: { tuiIdle: TuiIdleResult; guard: SendGuardResult }): string {
  const parts: string[] = [verdict.status ?? 'none', verdict.isRunningAgent ? 'running' : 'not-running'];
  const wait = verdict.agentWait;
  if (wait === undefined) parts.push('wait-unevaluated');
  else if (wait === null) parts.push('no-wait');
  else {
    parts.push(wait.source);
    if (wait.reason !== undefined) parts.push(wait.reason);
    if (wait.since !== undefined) parts.push(`since=${wait.since}`);
  }
  if (extra) {
    parts.push(`tui-idle=${extra.tuiIdle.state}`);
    const g = extra.guard;
    parts.push(`guard=${'retryAt' in g ? 'retry' : g.ok ? 'ok' : g.code}`);
  }
  return parts.map((part) => p(String(part))).join(' ');
}

/** Plain line of a title class: `idle claude explicit`. */
export function titleLine(c: TitleClass): string {
  return `${p(String(c.status ?? 'none'))} ${p(String(c.agent ?? 'none'))} ${p(String(c.kind))}`;
}
