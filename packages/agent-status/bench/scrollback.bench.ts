import { compareInterleaved, reportBench } from '@orca/bench';
import { evaluatePane } from '../src/fusion/evaluate-pane.ts';
import { retainedTail } from './dialogs.ts';

// One bottom screen under 100 000 vs 1 000 retained lines: the cost must not grow with scrollback.
const bigArray = retainedTail(100_000);
const smallArray = retainedTail(1_000);
const bigString = bigArray.join('\n');
const smallString = smallArray.join('\n');
const run = (tail: string | readonly string[]) =>
  evaluatePane({ now: 1000, ptyId: 'bench', waitBlockedAt: null, tail });

const asString = await compareInterleaved(
  () => run(bigString),
  () => run(smallString),
  { samples: 31, iterations: 300, warmup: 3 },
);
reportBench({ name: 'scrollback: 100k vs 1k retained lines (string tail)', ...asString, target: '<= 1.2', unit: 'ns' });

const asArray = await compareInterleaved(
  () => run(bigArray),
  () => run(smallArray),
  { samples: 31, iterations: 300, warmup: 3 },
);
reportBench({ name: 'scrollback: 100k vs 1k retained lines (array tail)', ...asArray, target: '<= 1.2', unit: 'ns' });
