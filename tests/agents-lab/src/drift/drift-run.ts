import fs from 'node:fs';
import path from 'node:path';
import { parseFixture } from '@orca/agent-status/fixtures';
import { LAB_AGENTS, resolveAgentBinary } from '../agents/binaries.ts';
import { fixtureName, REAL_FIXTURES_DIR } from '../harness/fixture-writer.ts';
import { profileFor } from '../scenarios/index.ts';
import { runTour, type TourReport } from '../scenarios/run-tour.ts';
import { installRelease } from './install.ts';
import { latestRelease, type NpmRunner, runNpm } from './registry.ts';
import { type ScreenDrift, screenDrift } from './screen-drift.ts';

/**
 * The builds `drift` follows: each toured build that tracks its package's newest release.
 * Why: `claude-2.1.197` is pinned old on purpose (the hook shape before 2.1.200).
 */
export const DRIFT_BUILDS = [
  'claude',
  'codex',
  'gemini',
  'qwen',
  'opencode',
  'droid',
  'copilot',
] as const satisfies readonly (keyof typeof LAB_AGENTS)[];
export type DriftBuild = (typeof DRIFT_BUILDS)[number];

/** One moment of a release's tour, next to the pinned release's screen of it. */
export interface MomentDrift {
  readonly name: string;
  readonly ok: boolean;
  /** What the moment's judge found wrong: a marker the rules need that the release no longer shows. */
  readonly failures: readonly string[];
  /** Rows against the pinned release's fixture of the moment; null when the pin has none. */
  readonly screen: ScreenDrift | null;
}

/** What `drift` found for one build. */
export interface BuildDrift {
  readonly build: DriftBuild;
  readonly pkg: string;
  readonly pinned: string;
  readonly release: string;
  /** `same`: the release is the pin (no tour run); `toured`: its tour ran. */
  readonly state: 'same' | 'toured';
  readonly moments: readonly MomentDrift[];
  /** Moments the pinned tour has a fixture of that the release's tour never reached. */
  readonly missingMoments: readonly string[];
  /** The version the host detected and installed hooks for (null: none detected). */
  readonly hooksInstalledFor: string | null;
  readonly hookEvents: readonly string[];
}

/** Options of {@link driftOf}. */
export interface DriftOptions {
  /** Tour this release instead of the registry's latest. */
  readonly release?: string;
  /** Tour the release even when it is the pin. */
  readonly always?: boolean;
  readonly npm?: NpmRunner;
  readonly cacheRoot?: string;
  readonly fixturesDir?: string;
  /** Runs the tour (injected in tests); default: the lab's real tour in a real host. */
  readonly tour?: (build: DriftBuild, packagesDir: string) => Promise<TourReport>;
  /** Sees each release's whole tour report (to write its fixtures). */
  readonly onTour?: (report: TourReport) => void;
}

const realTour = (build: DriftBuild, packagesDir: string): Promise<TourReport> =>
  runTour(profileFor(build), { trustProject: false, approveApiKey: false, packagesDir });

function pinnedScreen(dir: string, agent: string, version: string, moment: string): string[] | null {
  const file = path.join(dir, `${fixtureName(agent, version, moment)}.fixture`);
  if (!fs.existsSync(file)) return null;
  return (parseFixture(fs.readFileSync(file, 'utf8')).screen ?? '').split('\n');
}

/** The moments the pin has fixtures of (`<agent>-<version>-<moment>.fixture`). */
function pinnedMoments(dir: string, agent: string, version: string): string[] {
  const prefix = `${agent}-${version}-`;
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.fixture'))
    .map((f) => f.slice(prefix.length, -'.fixture'.length));
}

/** Compares a release's tour with the pinned release's fixtures, moment by moment. */
export function compareTour(
  report: TourReport,
  pinned: string,
  fixturesDir: string,
): Pick<BuildDrift, 'moments' | 'missingMoments'> {
  const moments = report.moments.map((m) => {
    const before = pinnedScreen(fixturesDir, report.agent, pinned, m.name);
    return {
      name: m.name,
      ok: m.ok,
      failures: m.failures,
      screen: before && m.capture ? screenDrift(before, m.capture.screen) : null,
    };
  });
  const reached = new Set(report.moments.map((m) => m.name));
  return { moments, missingMoments: pinnedMoments(fixturesDir, report.agent, pinned).filter((m) => !reached.has(m)) };
}

/** Tours one build's newest release (or `opts.release`) and compares it with the pin. */
export async function driftOf(build: DriftBuild, opts: DriftOptions = {}): Promise<BuildDrift> {
  const { pkg } = LAB_AGENTS[build];
  const pinned = resolveAgentBinary(build).version;
  const release = opts.release ?? (await latestRelease(pkg, opts.npm ?? runNpm));
  const base = { build, pkg, pinned, release };
  if (release === pinned && !opts.always) {
    return { ...base, state: 'same', moments: [], missingMoments: [], hooksInstalledFor: null, hookEvents: [] };
  }
  const dir = await installRelease(pkg, release, opts.cacheRoot, opts.npm ?? runNpm);
  const report = await (opts.tour ?? realTour)(build, dir);
  opts.onTour?.(report);
  return {
    ...base,
    state: 'toured',
    ...compareTour(report, pinned, opts.fixturesDir ?? REAL_FIXTURES_DIR),
    hooksInstalledFor: report.installedVersion ?? null,
    hookEvents: report.hookEvents,
  };
}

/** A build drifted when its release's tour failed a moment, missed one, or hooks went unmatched. */
export function drifted(d: BuildDrift): boolean {
  return (
    d.state === 'toured' &&
    (d.moments.some((m) => !m.ok) || d.missingMoments.length > 0 || d.hooksInstalledFor !== d.release)
  );
}
