import fs from 'node:fs';
import path from 'node:path';
import { formatFixture } from '@orca/agent-status/fixtures';
import type { TourReport } from '../scenarios/run-tour.ts';

/** Where real-screen fixtures go: agent-status's corpus, group `real`. */
export const REAL_FIXTURES_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../../packages/agent-status/fixtures/real',
);

/** The fixture file name of one moment: agent, version and moment (`claude-2.1.332-permission-shell`). */
export function fixtureName(agent: string, version: string, moment: string): string {
  return `${agent}-${version}-${moment}`;
}

/**
 * Writes every passed moment of a tour that makes a fixture into `dir`; returns the written names.
 * Run by `ORCA_LAB_WRITE_FIXTURES=1 pnpm --filter @orca/agents-lab test` (never in CI).
 */
export function writeTourFixtures(report: TourReport, dir: string = REAL_FIXTURES_DIR): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const m of report.moments) {
    if (!m.ok || !m.fixture) continue;
    const name = fixtureName(report.agent, report.version, m.name);
    fs.writeFileSync(path.join(dir, `${name}.fixture`), formatFixture(m.fixture));
    written.push(name);
  }
  return written;
}
