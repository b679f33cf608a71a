import {
  LAB_MOMENT_HOLD_MS,
  MARKER_GONE_CONFIRM_MS,
  SCREEN_POLL_MS,
  SKIP_STABLE_MS,
  VERDICT_GRACE_MS,
  VERDICT_SAMPLE_INTERVAL_MS,
} from '../limits.ts';
import { captureMoment, type MomentCapture } from './capture.ts';
import type { LabRun } from './lab-run.ts';
import { describeVerdict, type Sample, type VerdictExpectation, verdictMatches, waitOf } from './moment.ts';

/** One moment of a scenario: how it comes about, how the lab knows it is on screen, and the truth. */
export interface MomentSpec {
  readonly name: string;
  /** Brings the moment about (keys, a dispatch); runs after the previous moment left. */
  readonly enter?: (run: LabRun) => Promise<void>;
  /** Ground truth that the moment is on screen (read from the rendered screen). */
  readonly marker: RegExp | ((run: LabRun) => boolean);
  readonly markerTimeoutMs?: number;
  /** The marker must hold this long before the moment starts (a screen the TUI flashes first). */
  readonly markerStableMs?: number;
  /** The moment may not come: skipped when this holds before its marker does. */
  readonly skipIf?: (run: LabRun) => boolean;
  readonly expect: VerdictExpectation;
  /** How long the moment is sampled (ms). */
  readonly holdMs?: number;
  /** `orca terminal wait --for tui-idle` at this moment. */
  readonly tuiIdle?: 'blocked' | 'satisfied' | 'not-satisfied';
  /** `dispatch --inject` at this moment must be refused with zero bytes and no effect. */
  readonly dispatchRefused?: boolean;
  /** After a refused dispatch: a problem the lab can see (a tool ran, a file changed), or null. */
  readonly noEffect?: (run: LabRun) => string | null;
  /** Ends the moment (keys). */
  readonly leave?: (run: LabRun) => Promise<void>;
  /** Save the moment as an agent-status fixture (default true). */
  readonly fixture?: boolean;
  /** One line for the fixture's `why:`. */
  readonly why?: string;
}

/** What the lab measured at one moment. */
export interface MomentResult {
  readonly name: string;
  readonly samples: readonly Sample[];
  readonly judged: number;
  readonly wrong: readonly Sample[];
  readonly problems: readonly string[];
  readonly capture: MomentCapture | null;
  /** ms from the marker's first sighting to the first matching verdict (null: never matched). */
  readonly detectMs: number | null;
  /** The moment did not come (its `skipIf` held first). */
  readonly skipped?: true;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function markerHolds(run: LabRun, marker: MomentSpec['marker']): boolean {
  return typeof marker === 'function' ? marker(run) : marker.test(run.screenText());
}

/** True when the marker stays off the screen for {@link MARKER_GONE_CONFIRM_MS} (not one half-drawn frame). */
async function markerGone(run: LabRun, marker: MomentSpec['marker']): Promise<boolean> {
  const until = Date.now() + MARKER_GONE_CONFIRM_MS;
  while (Date.now() < until) {
    if (markerHolds(run, marker)) return false;
    await sleep(Math.min(SCREEN_POLL_MS, Math.max(1, until - Date.now())));
  }
  return !markerHolds(run, marker);
}

async function waitMarker(run: LabRun, spec: MomentSpec): Promise<number | 'skipped'> {
  const timeout = spec.markerTimeoutMs ?? 30_000;
  let skipped = false;
  let skipSince: number | null = null;
  let heldSince: number | null = null;
  await run.waitForScreen(
    () => {
      if (markerHolds(run, spec.marker)) {
        heldSince ??= Date.now();
        if (Date.now() - heldSince >= (spec.markerStableMs ?? 0)) return true;
        return false;
      }
      heldSince = null;
      // Why: a TUI may flash its idle prompt before a startup question paints over it.
      if (spec.skipIf?.(run) === true) skipSince ??= Date.now();
      else skipSince = null;
      skipped = skipSince !== null && Date.now() - skipSince >= SKIP_STABLE_MS;
      return skipped;
    },
    timeout,
    `moment ${spec.name} (${spec.marker})`,
  );
  return skipped ? 'skipped' : Date.now();
}

async function checkTuiIdle(run: LabRun, want: NonNullable<MomentSpec['tuiIdle']>): Promise<string | null> {
  const timeout = want === 'satisfied' ? 10_000 : want === 'blocked' ? 3_000 : 1_500;
  let got: string;
  try {
    const r = await run.host.wait(run.handle, 'tui-idle', timeout);
    got = r.satisfied ? 'satisfied' : r.blockedReason ? `blocked(${r.blockedReason})` : 'not-satisfied';
  } catch (error) {
    const code = (error as { code?: string }).code;
    got = code === 'timeout' ? 'not-satisfied' : `error(${code ?? (error as Error).message})`;
  }
  const ok = want === 'blocked' ? got.startsWith('blocked') : got === want;
  return ok ? null : `tui-idle: wanted ${want}, got ${got}`;
}

async function checkRefusedDispatch(run: LabRun, spec: MomentSpec): Promise<string[]> {
  const problems: string[] = [];
  const before = run.bytesWritten();
  let outcome: string;
  try {
    const r = await run.host.dispatchInject(run.handle, 'hello from the lab');
    outcome = `accepted (${r.bytes} bytes)`;
  } catch (error) {
    outcome = (error as { code?: string }).code ?? (error as Error).message;
  }
  if (outcome !== 'agent_prompt_blocked') problems.push(`dispatch: wanted agent_prompt_blocked, got ${outcome}`);
  const wrote = run.bytesWritten() - before;
  if (wrote !== 0) problems.push(`dispatch wrote ${wrote} bytes`);
  await sleep(800);
  if (!markerHolds(run, spec.marker)) problems.push('the moment left the screen after the refused dispatch');
  const effect = spec.noEffect?.(run) ?? null;
  if (effect) problems.push(`refused dispatch had an effect: ${effect}`);
  return problems;
}

/**
 * Runs one moment: enter, wait for its marker, sample the verdict every
 * `VERDICT_SAMPLE_INTERVAL_MS` for `holdMs` (samples judged once `VERDICT_GRACE_MS` passed since the
 * marker appeared), capture the evidence, then check tui-idle and a refused dispatch, then leave.
 */
export async function runMoment(run: LabRun, spec: MomentSpec): Promise<MomentResult> {
  await spec.enter?.(run);
  const start = await waitMarker(run, spec);
  if (start === 'skipped') {
    return {
      name: spec.name,
      samples: [],
      judged: 0,
      wrong: [],
      problems: [],
      capture: null,
      detectMs: null,
      skipped: true,
    };
  }
  const samples: Sample[] = [];
  const problems: string[] = [];
  let detectMs: number | null = null;
  const hold = spec.holdMs ?? LAB_MOMENT_HOLD_MS;
  for (;;) {
    const atMs = Date.now() - start;
    if (!markerHolds(run, spec.marker)) {
      // Why: a frame read half drawn is not the moment ending; it is not sampled either.
      if (!(await markerGone(run, spec.marker))) {
        if (atMs >= hold) break;
        continue;
      }
      if (atMs < VERDICT_GRACE_MS + VERDICT_SAMPLE_INTERVAL_MS * 2) problems.push(`left the screen after ${atMs} ms`);
      break;
    }
    const view = run.view();
    const ok = verdictMatches(view, spec.expect);
    if (ok && detectMs === null) detectMs = atMs;
    samples.push({
      atMs,
      status: view.status,
      isRunningAgent: view.isRunningAgent,
      agentWait: waitOf(view),
      title: view.title,
      ok,
    });
    if (atMs >= hold) break;
    await sleep(VERDICT_SAMPLE_INTERVAL_MS);
  }
  const judgedSamples = samples.filter((s) => s.atMs >= VERDICT_GRACE_MS);
  const wrong = judgedSamples.filter((s) => !s.ok);
  if (judgedSamples.length === 0) problems.push('no sample was judged (the moment was too short)');
  let capture: MomentCapture | null = null;
  if (!run.host.livePane(run.handle).exit) capture = await captureMoment(run);
  if (spec.tuiIdle) {
    const p = await checkTuiIdle(run, spec.tuiIdle);
    if (p) problems.push(p);
  }
  if (spec.dispatchRefused) problems.push(...(await checkRefusedDispatch(run, spec)));
  try {
    await spec.leave?.(run);
  } catch (error) {
    problems.push(`leaving: ${(error as Error).message.split('\n')[0]}`);
  }
  return { name: spec.name, samples, judged: judgedSamples.length, wrong, problems, capture, detectMs };
}

/** Failure text of a moment (empty when it passed). */
export function momentFailures(result: MomentResult, expected: VerdictExpectation): string[] {
  const out = [...result.problems];
  for (const s of result.wrong.slice(0, 5)) {
    out.push(`at ${s.atMs} ms: ${describeVerdict(s)}; wanted ${JSON.stringify(expected)}`);
  }
  if (result.wrong.length > 5) out.push(`… ${result.wrong.length - 5} more wrong samples`);
  return out;
}
