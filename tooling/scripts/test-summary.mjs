#!/usr/bin/env node
// Sums every package's `.vitest-report.json` (written by the shared vitest preset) into the one
// closing line CI reads: `tests: N passed, N failed, N skipped`. Exit 1 when nothing ran or any
// test failed, so an empty run can never look green. `--clean` first removes old reports so a
// package whose tests did not run this time cannot be counted.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const clean = process.argv.includes('--clean');
let passed = 0;
let failed = 0;
let skipped = 0;
const perPackage = [];
for (const group of ['packages', 'apps', 'tests', 'tooling']) {
  const dir = path.join(root, group);
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, '.vitest-report.json');
    if (!fs.existsSync(file)) continue;
    if (clean) {
      fs.rmSync(file);
      continue;
    }
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    const p = report.numPassedTests ?? 0;
    const f = report.numFailedTests ?? 0;
    const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    passed += p;
    failed += f;
    skipped += s;
    perPackage.push(`${group}/${name}: ${p} passed, ${f} failed, ${s} skipped`);
  }
}
if (clean) process.exit(0);
console.log(perPackage.join('\n'));
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
