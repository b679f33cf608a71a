#!/usr/bin/env node
// The `pnpm bench` runner: finds every `bench/*.bench.ts` of the workspace's packages (or of the
// one given with `--package DIR`), runs each with tsx against `src/` (orca-source condition),
// collects their result lines and prints `name  ours  baseline  ratio  target  met`.
// `--only NAME` runs the bench files named NAME (or containing it). `--runs N` runs them N times and
// prints each row's worst run next to its median run. Exit 1 when a bench failed or any row missed
// its target (with --runs: in its worst run, or a run did not report it), after printing every row.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { formatBenchTable, parseBenchLine, targetMet } = await import('./src/report.ts');
const { aggregateRuns, formatRunsTable, runsRowMet } = await import('./src/runs.ts');
const { benchExitCode, selectBenchFiles } = await import('./src/run-plan.ts');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const only = args.includes('--package') ? path.resolve(args[args.indexOf('--package') + 1] ?? '.') : undefined;
const onlyBench = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 1;
if (!Number.isInteger(runs) || runs < 1) {
  console.error('bench: --runs expects a whole number of runs ≥ 1');
  process.exit(2);
}
if (args.includes('--only') && !onlyBench) {
  console.error('bench: --only expects a bench name (the file name without .bench.ts)');
  process.exit(2);
}

function packageDirs() {
  if (only) return [only];
  return ['packages', 'apps', 'tests'].flatMap((group) => {
    const dir = path.join(root, group);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
  });
}

const allFiles = packageDirs().flatMap((dir) => {
  const benchDir = path.join(dir, 'bench');
  if (!fs.existsSync(benchDir)) return [];
  return fs
    .readdirSync(benchDir)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .map((f) => path.join(benchDir, f));
});
const files = selectBenchFiles(allFiles, onlyBench);
if (onlyBench && files.length === 0) {
  console.error(`bench: no bench named ${JSON.stringify(onlyBench)} (found ${allFiles.length} bench files)`);
  process.exit(2);
}

/**
 * Runs one bench file in its own process group and resolves with its exit status and stdout. Why:
 * a process a bench leaves behind (a relay, a shell, an agent CLI) would load the machine for the
 * benches after it; whatever of its group is still alive when it exits is named and killed.
 */
function runBenchFile(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsxCli, '--conditions=orca-source', file], {
      cwd: path.dirname(path.dirname(file)),
      // Why: the compare kit collects garbage before each timed side (tooling/bench/src/measure.ts).
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim() },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('close', (status) => {
      killLeftovers(child.pid, file);
      resolve({ status, stdout });
    });
  });
}

function killLeftovers(pgid, file) {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 0);
  } catch {
    return; // nothing of the group is left
  }
  let names = '';
  try {
    names = execFileSync('ps', ['-o', 'pid=,comm=', '-g', String(pgid)], { encoding: 'utf8' })
      .trim()
      .replace(/\s+/g, ' ');
  } catch {
    // ps found none, or is absent
  }
  // Why: the esbuild service of the bench's tsx ends a moment after it; it is killed with the rest
  // but is no leftover of the bench, so only the others are named.
  names = names
    .split(/\s+(?=\d+\s)/)
    .filter((entry) => entry !== '' && !/^\d+ esbuild$/.test(entry))
    .join(' ');
  if (names !== '')
    process.stderr.write(`bench: ${path.relative(root, file)} left processes behind (${names}); killing them\n`);
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone in between
  }
}

const tsxCli = path.join(path.dirname(fileURLToPath(import.meta.resolve('tsx/package.json'))), 'dist/cli.mjs');
const perRun = [];
let failures = 0;
for (let run = 1; run <= runs; run += 1) {
  const results = [];
  for (const file of files) {
    const rel = path.relative(root, file);
    process.stderr.write(`bench: running ${rel}${runs > 1 ? ` (run ${run} of ${runs})` : ''}\n`);
    const child = await runBenchFile(file);
    const found = child.stdout.split('\n').map(parseBenchLine).filter(Boolean);
    if (child.status !== 0 || found.length === 0) {
      failures++;
      process.stderr.write(`bench: ${rel} exited ${child.status} with ${found.length} results\n`);
    }
    results.push(
      ...found.map((r) => ({ ...r, name: `${path.basename(path.dirname(path.dirname(file)))}: ${r.name}` })),
    );
  }
  perRun.push(results);
}

const results = perRun.flat();
if (results.length === 0) {
  console.log(`no benchmarks registered (looked in ${files.length === 0 ? 'every package' : `${files.length} files`})`);
  process.exit(benchExitCode(results, failures));
}
if (runs === 1) {
  console.log(formatBenchTable(results));
  const missed = results.filter((r) => targetMet(r) === false).length;
  console.log(`\n${results.length} results, ${missed} missed their target`);
  process.exit(benchExitCode(results, failures));
}
const rows = aggregateRuns(perRun);
console.log(formatRunsTable(rows));
const missed = rows.filter((row) => runsRowMet(row) === false).length;
console.log(`\n${rows.length} rows over ${runs} runs, ${missed} missed their target in the worst run`);
process.exit(failures > 0 || missed > 0 ? 1 : 0);
