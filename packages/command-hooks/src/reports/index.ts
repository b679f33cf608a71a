/**
 * `@orca/command-hooks/reports`: the `list` and `dry-run` reports and their formatters, shared by
 * `orca-command-hooks` and `orca command-hooks` so both print the same JSON.
 *
 * @example
 * import { buildListReport, formatReportJson } from '@orca/command-hooks/reports';
 * console.log(formatReportJson(await buildListReport('.', { home: os.homedir() })));
 */
export { buildDryRunReport, type DryRunOptions, type DryRunReport } from './dry-run-report.ts';
export { formatDryRunReport, formatListReport, formatReportJson, reportExitCode } from './format.ts';
export { buildListReport, type ListedHook, type ListReport, listReportOf } from './list-report.ts';
