import { performance } from 'node:perf_hooks';
import { evaluatePane } from '../src/fusion/evaluate-pane.ts';
import { findBlockedSignal } from '../src/screen/blocked-signal.ts';
import { windowFromTail } from '../src/screen/match-window.ts';
import { fortyLineTails } from './dialogs.ts';

const tails = fortyLineTails();
function time(label: string, fn: () => unknown, n = 2000) {
  for (let i = 0; i < 200; i++) fn();
  const s = performance.now();
  for (let i = 0; i < n; i++) fn();
  console.log(label, (((performance.now() - s) * 1e3) / n).toFixed(2), 'µs');
}
const re = /press enter to (confirm|continue)/i;
for (const [name, tail] of tails) {
  const w = windowFromTail(tail);
  time(`${name} regex`, () => re.test(tail));
  time(`${name} window`, () => windowFromTail(tail));
  time(`${name} signal`, () => findBlockedSignal(w));
}
const s = performance.now();
for (let i = 0; i < 2000; i++)
  for (const [, tail] of tails) await evaluatePane({ now: 1000, ptyId: 'b', waitBlockedAt: 500, tail });
console.log('evaluatePane avg', (((performance.now() - s) * 1e3) / 12000).toFixed(2), 'µs');
