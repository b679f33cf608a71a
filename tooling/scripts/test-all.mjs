#!/usr/bin/env node
// `pnpm test`: lint (Biome), then every package's typecheck and tests through turbo, then one
// closing line summed from each package's `.vitest-report.json`:
//   tests: N passed, N failed, N skipped
// The summary is printed even when a step failed. Exit 1 when any step failed, any test or suite
// failed, nothing ran, or a package with a `test` script wrote no report this run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPORT = '.vitest-report.json';
const GROUPS = ['packages', 'apps', 'tests', 'tooling'];
// Why: 2 cores; suites that spawn shells, PTYs, wine and sshd time out when all run at once.
const TURBO_CONCURRENCY = process.env.ORCA_TEST_CONCURRENCY ?? '3';

function packagesWithTests() {
  return GROUPS.flatMap((group) => {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .sort()
      .map((name) => path.join(dir, name))
      .filter((p) => {
        const manifest = path.join(p, 'package.json');
        return fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).scripts?.test;
      });
  });
}

function run(label, command, args) {
  console.log(`\n== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}

// Why: CI shows only the tail of the log; name each failure (and its first message line) here.
function failureLines(pkgDir, report) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const rel = path.relative(pkgDir, file.name ?? '');
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      lines.push(`✗ ${rel} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) lines.push(`✗ ${rel}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  const line =
    stripVTControlCharacters(String(text ?? ''))
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const packages = packagesWithTests();
for (const p of packages) fs.rmSync(path.join(p, REPORT), { force: true });

const steps = [
  ['lint', 'pnpm', ['exec', 'biome', 'check', '.']],
  [
    'typecheck + tests',
    'pnpm',
    ['exec', 'turbo', 'run', 'typecheck', 'test', `--concurrency=${TURBO_CONCURRENCY}`, '--continue'],
  ],
];
const failedSteps = steps.filter(([label, command, args]) => !run(label, command, args)).map(([label]) => label);

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
console.log('\n== per package');
for (const p of packages) {
  const rel = path.relative(root, p);
  const file = path.join(p, REPORT);
  if (!fs.existsSync(file)) {
    problems.push(`${rel} wrote no ${REPORT} (its tests did not run)`);
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const pkgFailed = (r.numFailedTests ?? 0) + (r.numFailedTestSuites ?? 0);
  const pkgSkipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  passed += r.numPassedTests ?? 0;
  failed += pkgFailed;
  skipped += pkgSkipped;
  if ((r.numTotalTests ?? 0) === 0) problems.push(`${rel} ran no test`);
  if (r.success === false && pkgFailed === 0) problems.push(`${rel} reported failure`);
  console.log(`${rel}: ${r.numPassedTests ?? 0} passed, ${pkgFailed} failed, ${pkgSkipped} skipped`);
  for (const line of failureLines(p, r)) console.log(`  ${line}`);
}
for (const step of failedSteps) problems.push(`step failed: ${step}`);
for (const problem of problems) console.log(`problem: ${problem}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(problems.length > 0 || failed > 0 || passed === 0 ? 1 : 0);
