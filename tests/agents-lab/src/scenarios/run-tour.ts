import fs from 'node:fs';
import path from 'node:path';
import type { FixtureCase } from '@orca/agent-status/fixtures';
import type { AgentProfile } from '../agents/profile.ts';
import type { MomentCapture } from '../harness/capture.ts';
import { type LabRun, startLabRun } from '../harness/lab-run.ts';
import { replayCapture, replayProblems } from '../harness/replay.ts';
import { type MomentResult, momentFailures, runMoment } from '../harness/scenario-runner.ts';
import { screensFor } from './index.ts';
import { startupMoments, tourMoments } from './tour.ts';
import { tourReplies } from './tour-replies.ts';

/** One moment of a tour report. */
export interface TourMoment {
  readonly name: string;
  readonly ok: boolean;
  readonly judged: number;
  readonly detectMs: number | null;
  readonly failures: readonly string[];
  readonly capture: MomentCapture | null;
  readonly why?: string;
  /** The moment as an agent-status fixture (captured evidence, the engine's answer), when it makes one. */
  readonly fixture: FixtureCase | null;
}

/** What a tour of one agent build measured. */
export interface TourReport {
  readonly build: string;
  readonly agent: string;
  readonly version: string;
  readonly installedVersion: string | undefined;
  readonly hookEvents: readonly string[];
  readonly moments: readonly TourMoment[];
  /** Main model requests: the newest user turn each answered (for debugging a tour). */
  readonly modelTurns?: readonly string[];
}

/** Options of {@link runTour}. */
export interface TourOptions {
  readonly trustProject?: boolean;
  readonly approveApiKey?: boolean;
  /** Print each moment's screen and samples as it ends. */
  readonly verbose?: boolean;
  /** An npm prefix holding another release of the build's package (`drift`); default: the lab's pin. */
  readonly packagesDir?: string;
}

function printMoment(result: MomentResult, run: LabRun): void {
  console.log(`\n===== ${run.profile.build} ${result.name}`);
  console.log((result.capture?.screen ?? run.screen()).map((l, i) => `${String(i).padStart(2)}|${l}`).join('\n'));
  console.log(`title: ${JSON.stringify(result.capture?.title ?? null)}`);
  console.log(
    `samples: ${result.samples.map((s) => `${s.atMs}:${JSON.stringify(s.title)}:${s.status}/${typeof s.agentWait === 'object' ? String(s.agentWait.reason ?? s.agentWait.source) : s.agentWait}${s.ok ? '' : '!'}`).join(' ')}`,
  );
  if (result.problems.length > 0) console.log(`problems: ${result.problems.join(' | ')}`);
}

/**
 * Runs the startup moments (when their questions are not pre-answered) and the tour of
 * `tourMoments` for one agent build, in one real host.
 */
export async function runTour(profile: AgentProfile, opts: TourOptions = {}): Promise<TourReport> {
  const screens = screensFor(profile.agent);
  const trustProject = opts.trustProject ?? true;
  const approveApiKey = opts.approveApiKey ?? true;
  const run = await startLabRun({
    profile,
    replies: ({ project }) => tourReplies(screens, project),
    trustProject,
    approveApiKey,
    ...(opts.packagesDir !== undefined ? { packagesDir: opts.packagesDir } : {}),
  });
  const specs = [
    ...startupMoments(screens, { trust: !trustProject, apiKey: !approveApiKey }),
    ...tourMoments(profile, screens),
  ];
  const moments: TourMoment[] = [];
  let report: TourReport;
  try {
    for (const spec of specs) {
      let result: MomentResult;
      try {
        result = await runMoment(run, spec);
      } catch (error) {
        if (opts.verbose) console.log(`\n===== ${profile.build} ${spec.name}: ${(error as Error).message}`);
        moments.push({
          name: spec.name,
          ok: false,
          judged: 0,
          detectMs: null,
          failures: [(error as Error).message.split('\n')[0] ?? 'error'],
          capture: null,
          fixture: null,
        });
        break;
      }
      if (result.skipped) {
        if (opts.verbose) console.log(`\n===== ${profile.build} ${spec.name}: skipped (did not come)`);
        continue;
      }
      if (opts.verbose) printMoment(result, run);
      const failures = momentFailures(result, spec.expect);
      let fixture: FixtureCase | null = null;
      if (result.capture && spec.fixture !== false) {
        const why = `${spec.why ?? spec.name} Real ${profile.agent} ${run.version} screen from the agents lab.`;
        const replay = await replayCapture(result.capture, why);
        failures.push(...replayProblems(replay.actual, spec.expect));
        fixture = replay.fixture;
      }
      moments.push({
        name: spec.name,
        ok: failures.length === 0,
        judged: result.judged,
        detectMs: result.detectMs,
        failures,
        capture: result.capture,
        ...(spec.why ? { why: spec.why } : {}),
        fixture,
      });
    }
  } finally {
    report = {
      build: profile.build,
      agent: profile.agent,
      version: run.version,
      installedVersion: run.installReports[0]?.version?.version,
      hookEvents: run.hookEvents(),
      moments,
      modelTurns: run.server.requests
        .filter((r) => r.role === 'main')
        .map((r) => `#${r.replyIndex} ${(r.userTurns.at(-1) ?? '').slice(0, 60)}`),
    };
    writeCaptures(report);
    writeRequests(profile.build, run.server.requests);
    writeTimeline(profile.build, run);
    await run.stop();
  }
  return report;
}

/** Keeps the last tour's model requests under `captures/` (git-ignored), for debugging. */
function writeRequests(build: string, requests: readonly { role: string; body: unknown }[]): void {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../../captures');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${build}.requests.json`), `${JSON.stringify(requests, null, 1)}\n`);
}

/** Titles and hooks of the last tour in arrival order under `captures/`, for debugging. */
function writeTimeline(build: string, run: LabRun): void {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../../captures');
  const events = [
    ...run.titles().map((t) => ({ at: t.at, what: `title ${JSON.stringify(t.text)}` })),
    ...run.hookTimeline().map((h) => ({ at: h.at, what: `hook ${h.event}` })),
  ].sort((a, b) => a.at - b.at);
  const start = events[0]?.at ?? 0;
  fs.writeFileSync(path.join(dir, `${build}.timeline.txt`), events.map((e) => `${e.at - start}\t${e.what}`).join('\n'));
}

/** Keeps the last tour's screens under `captures/` (git-ignored) for inspection. */
function writeCaptures(report: TourReport): void {
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../../captures');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${report.build}.json`), `${JSON.stringify(report, null, 2)}\n`);
}
