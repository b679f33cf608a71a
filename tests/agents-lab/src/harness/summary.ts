import fs from 'node:fs';
import path from 'node:path';
import type { TourReport } from '../scenarios/run-tour.ts';

/** Where each tour's one-line-per-moment result is kept (git-ignored), for the run's summary table. */
const SUMMARY_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../captures');

/** One row of the lab's results table. */
export interface SummaryRow {
  agent: string;
  version: string;
  moment: string;
  result: 'pass' | 'FAIL';
  samples: number;
  detectMs: number | null;
}

/** The table rows of a tour. */
export function summaryRows(report: TourReport): SummaryRow[] {
  return report.moments.map((m) => ({
    agent: report.agent,
    version: report.version,
    moment: m.name,
    result: m.ok ? 'pass' : 'FAIL',
    samples: m.judged,
    detectMs: m.detectMs,
  }));
}

/** Prints the tour as a table and keeps it under `captures/summary-<build>.json`. */
export function recordSummary(report: TourReport): SummaryRow[] {
  const rows = summaryRows(report);
  fs.mkdirSync(SUMMARY_DIR, { recursive: true });
  fs.writeFileSync(path.join(SUMMARY_DIR, `summary-${report.build}.json`), `${JSON.stringify(rows, null, 2)}\n`);
  const lines = rows.map(
    (r) =>
      `${r.agent}\t${r.version}\t${r.moment.padEnd(28)}\t${r.result}\t${r.samples} samples\t${r.detectMs ?? '-'} ms`,
  );
  console.log(`agents lab · ${report.build}\n${lines.join('\n')}`);
  return rows;
}

/** Every failure of a tour, as `moment: problem` lines (empty when every moment passed). */
export function tourFailures(report: TourReport): string[] {
  return report.moments.flatMap((m) => m.failures.map((f) => `${m.name}: ${f}`));
}
