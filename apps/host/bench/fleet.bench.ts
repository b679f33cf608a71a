// The host at fleet scale (issue 13). Each case runs in its own process (bench/fleet/run-case.ts):
// a real host, N panes replaying agent sessions in real PTYs, hook events POSTed over real HTTP
// to the real listener at the sessions' times. Cases: the realistic mix (20% working, 10% waiting
// on a human, 70% idle; working and waiting panes replay a real Claude Code session recorded in
// the agents lab, see fleet/recorded.ts) at 10/50/100/200 panes, idle panes alone at 100, the
// stress case at 100. Targets are the issue's; a row the issue names no target for says info.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportBench } from '@orca/bench';
import { STAGES, type StageSummary } from './fleet/hook-stages.ts';
import { recordingLabel } from './fleet/recorded.ts';

const SECONDS = Number(process.env.ORCA_FLEET_SECONDS ?? 20);
const SIZES = (process.env.ORCA_FLEET_SIZES ?? '10,50,100,200').split(',').map(Number);
const here = dirname(fileURLToPath(import.meta.url));
const tsxCli = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/cli.mjs');

interface CaseResult {
  panes: number;
  events: { scheduled: number; sent: number; failed: number; stored: number; lost: number };
  hook: { samples: number; alreadyShown: number; noVerdict: number; p50: number | null; p99: number | null };
  screen: { expected: number; samples: number; unseen: number; p50: number | null; p99: number | null };
  stages: StageSummary;
  panesCreatedMs: number;
  backlog: { charsP99: number | null; charsMax: number; behindMsP99: number | null; behindMsMax: number }[];
  eventLoopDelayP99Ms: number;
  cpuPercent: number;
  cpuSecPerPaneSecond: number;
  rssPerPaneMb: number;
}

function runCase(kind: string, panes: number): CaseResult {
  const run = spawnSync(
    process.execPath,
    [tsxCli, '--conditions=orca-source', join(here, 'fleet/run-case.ts'), kind, String(panes), String(SECONDS)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 * 1024 * 1024 },
  );
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`fleet case ${kind} ${panes} exited ${run.status}`);
  return JSON.parse(line) as CaseResult;
}

const ms = (v: number | null): number => v ?? Number.NaN;
const fixed = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : v.toFixed(1));
/** Short names of the hook → verdict stages (what each spans: bench/fleet/hook-stages.ts). */
const STAGE_LABEL: Record<(typeof STAGES)[number] | 'total', string> = {
  client: 'client (POST begun → request written by the driver)',
  listener: 'listener (request written → in its pane)',
  'store commit': 'store commit (row queued → committed; the 204 waits, the verdict does not)',
  'evaluation queue': 'evaluation queue (in its pane → evaluation begins)',
  'screen settle': 'screen settle (evaluation waiting for the screen worker)',
  evaluation: 'evaluation (fusion)',
  publish: 'publish (verdict stored and told)',
  total: 'total (request written → verdict published)',
};

function report(
  label: string,
  r: CaseResult,
  targets: { hookP99?: number; screenP99?: number; eld?: number; rss?: number },
  detailed: boolean,
) {
  const bounded = (name: string, ours: number, bound: number | undefined, unit: string, detail?: string) =>
    reportBench({
      name: `${label}: ${name}`,
      ours,
      baseline: bound ?? 1,
      ratio: bound === undefined ? ours : ours / bound,
      target: bound === undefined ? '-' : '<= 1',
      unit,
      ...(detail ? { detail } : {}),
    });
  reportBench({
    name: `${label}: events lost or timed without a verdict`,
    detail: `scheduled ${r.events.scheduled}, failed ${r.events.failed}, stored ${r.events.stored}, timed without a verdict ${r.hook.noVerdict}`,
    ours: r.events.lost + r.hook.noVerdict,
    baseline: Math.max(1, r.events.scheduled),
    ratio: (r.events.lost + r.hook.noVerdict) / Math.max(1, r.events.scheduled),
    target: '<= 0',
    unit: 'events',
  });
  bounded(
    'hook POST → verdict p99',
    ms(r.hook.p99),
    targets.hookP99,
    'ms',
    `p50 ${fixed(r.hook.p50)} ms, ${r.hook.samples} events; ${r.hook.alreadyShown} already shown`,
  );
  // Why: a case whose panes show menus always reports the row; no menu timed is a miss, not a gap.
  if (r.screen.expected > 0)
    bounded(
      'menu on screen → verdict p99',
      r.screen.unseen > 0 || r.screen.samples === 0 ? Number.POSITIVE_INFINITY : ms(r.screen.p99),
      targets.screenP99,
      'ms',
      `p50 ${fixed(r.screen.p50)} ms, ${r.screen.samples} menus, ${r.screen.unseen} unseen`,
    );
  bounded('event-loop delay p99', r.eventLoopDelayP99Ms, targets.eld, 'ms');
  bounded('host CPU', r.cpuPercent, undefined, '%');
  bounded('added RSS per pane', r.rssPerPaneMb, targets.rss, 'MB');
  if (!detailed) return;
  // Why: where the hook → verdict time goes, stage by stage, so a tail names its stage (issue 28).
  const slowest = r.stages.slowest;
  for (const stage of [...STAGES, 'total'] as const) {
    bounded(
      `hook → verdict stage p99: ${STAGE_LABEL[stage]}`,
      ms(r.stages.p99[stage]),
      undefined,
      'ms',
      stage === 'total' && slowest
        ? `slowest event: ${[...STAGES].map((s) => `${s} ${fixed(slowest[s])}`).join(', ')}; ${r.stages.screenWaited} of ${r.stages.events} waited for the screen`
        : undefined,
    );
  }
  for (const [worker, b] of r.backlog.entries()) {
    bounded(
      `screen worker ${worker + 1} of ${r.backlog.length}: backlog p99 (ms behind)`,
      ms(b.behindMsP99),
      undefined,
      'ms',
      `max ${b.behindMsMax.toFixed(0)} ms; chars p99 ${b.charsP99 ?? 0}, max ${b.charsMax}`,
    );
  }
  bounded('panes created before the replay', r.panesCreatedMs / 1000, undefined, 's');
}

const realistic = new Map<number, CaseResult>();
for (const panes of SIZES) {
  const r = runCase('realistic', panes);
  realistic.set(panes, r);
  report(
    `realistic ${panes} panes (${recordingLabel()})`,
    r,
    panes === 200 ? { hookP99: 50, screenP99: 250, eld: 20, rss: 3 } : {},
    panes === 200,
  );
}
const idle = runCase('idle', 100);
reportBench({
  name: 'idle 100 panes: host CPU per pane',
  detail: `${idle.cpuPercent.toFixed(2)}% for all`,
  ours: idle.cpuPercent / 100,
  baseline: 0.1,
  ratio: idle.cpuPercent / 100 / 0.1,
  target: '<= 1',
  unit: '%',
});
const at50 = realistic.get(50);
const at200 = realistic.get(200);
if (at50 && at200) {
  reportBench({
    name: 'realistic: per-pane cost at 200 vs 50 panes (CPU s per pane-second)',
    ours: at200.cpuSecPerPaneSecond,
    baseline: at50.cpuSecPerPaneSecond,
    target: '<= 1.2',
    unit: 's',
  });
}
const stress = runCase('stress', 100);
report('stress 100 panes', stress, { hookP99: 250 }, true);
