import { performance } from 'node:perf_hooks';
import { compareWithFloor, reportBench } from '@orca/bench';
import { evaluatePane } from '../src/fusion/evaluate-pane.ts';
import { MATCH_WINDOW_LINES } from '../src/limits.ts';
import { SENTINEL } from '../src/screen/blocked-signal.ts';
import { fortyLineTails } from './dialogs.ts';

// evaluatePane (no probe) on 40-line tails of each dialog kind vs one naive regex test of the same tail.
const tails = fortyLineTails();
const NAIVE = /press enter to (confirm|continue)/i;
const ITER = 200;

// The floor: the least any screen classifier does, written plainly — take the bottom lines, strip
// their escapes, lower-case them and run the engine's own fast-negative test (every rule needs one
// of its words) once over them. No rule decides anything here; evaluatePane runs every rule.
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g;
const plainClassify = (tail: string): boolean => {
  const lines = tail.split('\n').slice(-MATCH_WINDOW_LINES);
  const text = lines.map((l) => l.replace(ESCAPES, '').trim().toLowerCase()).join('\n');
  return SENTINEL.test(text);
};

const c = await compareWithFloor(
  async () => {
    for (const [, tail] of tails) await evaluatePane({ now: 1000, ptyId: 'bench', waitBlockedAt: 500, tail });
  },
  () => {
    let n = 0;
    for (const [, tail] of tails) if (plainClassify(tail)) n++;
    return n;
  },
  () => {
    let n = 0;
    for (const [, tail] of tails) if (NAIVE.test(tail)) n++;
    return n;
  },
  { samples: 15, iterations: ITER, warmup: 3 },
);
// Why: 40× one regex test was a guess; the floor reads the same lines the engine must read.
reportBench({
  name: 'classify-40: evaluatePane vs naive regex (per tail set)',
  ...c,
  target: '<= floor × 1.5',
  unit: 'ns',
});

// p99 of one evaluation, against the 50 µs target.
// Why: this loop is a new call site, and its first rounds still compile (p99 76–80 µs over the
// first 400 rounds of a fresh loop, 15–26 µs over every later 400); the target is the engine's
// steady state in a long-running host, so the loop's own first rounds run untimed. 2,000 timed
// rounds (12,000 evaluations, ~0.2 s): over 400 the p99 was the 24th-slowest of 2,400 calls, read
// 18–20 µs in three runs and 50 µs in a fourth (a scavenge lands on 1 call in ~850, so that tail is
// the VM, not GC); over 2,000 it read 15–19 µs in six runs.
const P99_WARMUP_ROUNDS = 400;
const P99_ROUNDS = 2_000;
const times: number[] = [];
for (let round = 0; round < P99_WARMUP_ROUNDS + P99_ROUNDS; round++) {
  for (const [, tail] of tails) {
    const start = performance.now();
    await evaluatePane({ now: 1000, ptyId: 'bench', waitBlockedAt: 500, tail });
    if (round >= P99_WARMUP_ROUNDS) times.push((performance.now() - start) * 1e6);
  }
}
times.sort((a, b) => a - b);
const p99 = times[Math.floor(times.length * 0.99)] ?? 0;
reportBench({
  name: 'classify-40: p99 of one evaluatePane vs 50 µs',
  ours: p99,
  baseline: 50_000,
  target: '<= 1',
  unit: 'ns',
});
