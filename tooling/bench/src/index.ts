export { reportBench } from './emit.ts';
export {
  type CompareOptions,
  type Comparison,
  compareInterleaved,
  compareWithFloor,
  type FloorComparison,
  measureMedian,
  measureSides,
} from './measure.ts';
export {
  BENCH_LINE_PREFIX,
  type BenchResult,
  formatBenchTable,
  parseBenchLine,
  targetBound,
  targetMet,
} from './report.ts';
export { aggregateRuns, formatRunsTable, type RunsRow, runsRowMet } from './runs.ts';
export { sideOrder, sideOrderCycle } from './side-order.ts';
