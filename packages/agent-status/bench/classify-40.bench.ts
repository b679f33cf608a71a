import { performance } from 'node:perf_hooks';
import { compareInterleaved, reportBench } from '@orca/bench';
import { evaluatePane } from '../src/fusion/evaluate-pane.ts';
import { fortyLineTails } from './dialogs.ts';

// evaluatePane (no probe) on 40-line tails of each dialog kind vs one naive regex test of the same tail.
const tails = fortyLineTails();
const NAIVE = /press enter to (confirm|continue)/i;
const ITER = 200;

const c = await compareInterleaved(
  async () => {
    for (const [, tail] of tails) await evaluatePane({ now: 1000, ptyId: 'bench', waitBlockedAt: 500, tail });
  },
  () => {
    let n = 0;
    for (const [, tail] of tails) if (NAIVE.test(tail)) n++;
    return n;
  },
  { samples: 15, iterations: ITER, warmup: 3 },
);
reportBench({ name: 'classify-40: evaluatePane vs naive regex (per tail set)', ...c, target: '<= 40', unit: 'ns' });

// p99 of one evaluation, against the 50 µs target.
const times: number[] = [];
for (let round = 0; round < 400; round++) {
  for (const [, tail] of tails) {
    const start = performance.now();
    await evaluatePane({ now: 1000, ptyId: 'bench', waitBlockedAt: 500, tail });
    times.push((performance.now() - start) * 1e6);
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
