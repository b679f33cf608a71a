import { terminalSafeJson } from '@orca/shared/printable';
import { describeHook, describeIssue, describeJsonLine, describeRecord } from '../cli/human-lines.ts';
import type { DryRunReport } from './dry-run-report.ts';
import type { ListReport } from './list-report.ts';

/** Exit code of a report: 1 when a config file had errors, else 0. */
export function reportExitCode(report: { errors: readonly unknown[] }): 0 | 1 {
  return report.errors.length > 0 ? 1 : 0;
}

/** The human lines of a `list` report (every outside string escaped). */
export function formatListReport(report: ListReport): string[] {
  return [
    ...report.hooks.map(describeHook),
    ...report.warnings.map((w) => describeIssue('warning', w, false)),
    ...report.errors.map((e) => describeIssue('error', e, true)),
  ];
}

/** The human lines of a dry-run report. */
export function formatDryRunReport(report: DryRunReport): string[] {
  return [
    ...report.records.map(describeRecord),
    describeJsonLine('outcome', report.outcome),
    ...report.asyncOutcomes.map((a) => describeJsonLine(`async ${a.hookId}`, a.outcome)),
    ...report.warnings.map((w) => describeIssue('warning', w, false)),
    ...report.errors.map((e) => describeIssue('error', e, false)),
  ];
}

/** A report as `--json` prints it: DEL and C1 escaped too, the same bytes from every CLI. */
export function formatReportJson(report: ListReport | DryRunReport): string {
  return terminalSafeJson(report, 2);
}
