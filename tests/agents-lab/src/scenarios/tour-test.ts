import { expect, it } from 'vitest';
import { writeTourFixtures } from '../harness/fixture-writer.ts';
import { recordSummary, tourFailures } from '../harness/summary.ts';
import { profileFor } from './index.ts';
import { runTour, type TourReport } from './run-tour.ts';

/** A tour takes about a minute on an idle machine; CI runs it beside other suites on 2 cores. */
export const TOUR_TIMEOUT_MS = 420_000;

/**
 * The vitest case of one build's tour: every moment from the startup questions (none pre-answered)
 * to `/exit` must pass, the host must have installed the hooks at the version it detected, and the
 * agent's hooks must have arrived.
 */
export function tourTest(build: string, hookEvents: readonly string[]): void {
  it(
    `${build}: every moment of the tour`,
    async () => {
      const report: TourReport = await runTour(profileFor(build), { trustProject: false, approveApiKey: false });
      recordSummary(report);
      if (process.env.ORCA_LAB_WRITE_FIXTURES === '1') writeTourFixtures(report);
      expect(tourFailures(report)).toEqual([]);
      expect(report.installedVersion).toBe(report.version);
      expect(report.hookEvents).toEqual(expect.arrayContaining([...hookEvents]));
    },
    TOUR_TIMEOUT_MS,
  );
}
