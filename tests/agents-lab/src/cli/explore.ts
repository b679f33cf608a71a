// Runs one agent's tour and prints each moment: screen, samples, problems. A development tool:
//   pnpm --filter @orca/agents-lab explore claude|claude-2.1.197|codex|gemini [--no-trust] [--no-api-key] [--write-fixtures]

import { writeTourFixtures } from '../harness/fixture-writer.ts';
import { profileFor } from '../scenarios/index.ts';
import { runTour } from '../scenarios/run-tour.ts';

const build = process.argv[2] ?? 'claude';
const trust = !process.argv.includes('--no-trust');
const apiKey = !process.argv.includes('--no-api-key');
const report = await runTour(profileFor(build), { trustProject: trust, approveApiKey: apiKey, verbose: true });
for (const m of report.moments) {
  console.log(
    `${m.ok ? 'ok  ' : 'FAIL'} ${m.name} judged=${m.judged} detect=${m.detectMs ?? '-'}ms ${m.failures.join(' | ')}`,
  );
}
if (process.argv.includes('--write-fixtures')) console.log(`fixtures: ${writeTourFixtures(report).join(', ')}`);
process.exit(report.moments.every((m) => m.ok) ? 0 : 1);
