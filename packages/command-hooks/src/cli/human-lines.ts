import { printableField as p, terminalSafeJson } from '@orca/shared/printable';
import type { ConfigIssue } from '../config/issues.ts';
import type { HookRecord } from '../records.ts';

// Hook ids, commands, file paths, config messages and hook output come from the user's files and
// processes: every one passes through printableField, so a line stays one line with no control
// character. Numbers and our own words are printed as they are.

/** One dry-run record line: `claude beforeSubmitPrompt <id> exit=2 12ms parseOk=true → deny`. */
export function describeRecord(r: HookRecord): string {
  if (r.kind === 'dropped') return `dropped ${p(r.event)} ${p(r.hookId)} (${p(String(r.reason))})`;
  const d = r.decision;
  const verdict =
    d.permission ?? (d.haltRun ? 'haltRun' : r.failed ? `failed (${r.failureMode ?? 'open'})` : 'no decision');
  const exit = r.exitCode === null ? (r.timedOut ? 'timeout' : 'killed') : String(r.exitCode);
  return `${p(r.dialect)} ${p(r.event)} ${p(r.hookId)} exit=${exit} ${Math.round(r.durationMs)}ms parseOk=${r.parseOk} → ${p(verdict)}${r.runtimeError ? ` [${p(r.runtimeError)}]` : ''}`;
}

/** One `list` line of a discovered hook. */
export function describeHook(h: {
  dialect: string;
  wireEvent: string;
  event: string;
  id: string;
  timeoutMs: number;
  command: string;
}): string {
  return `${p(h.dialect)} ${p(h.wireEvent)} → ${p(h.event)} ${p(h.id)} (${h.timeoutMs}ms): ${p(h.command)}`;
}

/** A `warning`/`error` line of a config issue (`error` lines carry line:column when known). */
export function describeIssue(kind: 'warning' | 'error', issue: ConfigIssue, withPosition: boolean): string {
  const at = withPosition && issue.line ? `:${issue.line}:${issue.column}` : '';
  return `${kind} ${p(issue.code)} ${p(issue.file)}${at}: ${p(issue.message)}`;
}

/** `outcome: {…}` and `async <id>: {…}` lines (JSON with DEL and C1 escaped too). */
export function describeJsonLine(label: string, value: unknown): string {
  return `${p(label)}: ${terminalSafeJson(value)}`;
}

/** The one stderr line of a failure: `orca-command-hooks: <message>` (its newlines escaped too). */
export function describeFailure(message: string): string {
  return `orca-command-hooks: ${p(message)}`;
}
