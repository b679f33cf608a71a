// One fleet case in its own process (so RSS and CPU are this case's alone): a real in-process
// host, N panes each replaying a session in a real PTY, their hook events POSTed by a separate
// driver process to the real listener. Prints one JSON line with every measure.
// Usage: tsx run-case.ts <realistic|stress|idle> <panes> <seconds>
import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../src/host/host.ts';
import { silentLogger } from '../../src/runtime/logger.ts';
import type { HookTiming } from '../../src/status/hook-timing.ts';
import { percentile, stagesOf, summariseStages } from './hook-stages.ts';
import { fleetMix, SESSIONS, type Session, type SessionKind } from './sessions.ts';

const [caseName = 'realistic', panesArg = '10', secondsArg = '20'] = process.argv.slice(2);
const PANES = Number(panesArg);
const SECONDS = Number(secondsArg);
const WARMUP_MS = 2000;
const DRAIN_MS = 2000;
const here = fileURLToPath(new URL('.', import.meta.url));
const now = (): number => performance.timeOrigin + performance.now();

const kinds: SessionKind[] =
  caseName === 'realistic' ? fleetMix(PANES) : Array.from({ length: PANES }, () => caseName as SessionKind);
const root = mkdtempSync(join(tmpdir(), 'orca-fleet-'));
// Why: panes of one kind cycle through the recordings; each distinct session is written once.
const seenOfKind = new Map<SessionKind, number>();
const files = new Map<string, string>();
const paneSessions = kinds.map((kind) => {
  const index = seenOfKind.get(kind) ?? 0;
  seenOfKind.set(kind, index + 1);
  const session = SESSIONS[kind](index);
  const key = `${kind}-${session.source}`;
  let file = files.get(key);
  if (file === undefined) {
    file = join(root, `${key}.rec`);
    writeFileSync(
      file,
      session.output.map((s) => `${s.at} ${Buffer.from(s.bytes, 'utf8').toString('hex')}\n`).join(''),
    );
    files.set(key, file);
  }
  return { session, file };
});

const rssBefore = process.memoryUsage().rss;
const timings: HookTiming[] = [];
const host = await createHost({
  dataDir: join(root, 'data'),
  logger: silentLogger(),
  home: root,
  hookTiming: (t) => timings.push(t),
});
// Why: the replay starts WARMUP_MS after the last pane runs (its time is written to the start file
// then), never while the fleet is still being created: creating 200 panes can take longer than
// any fixed warm-up on a loaded machine, and a replay due meanwhile was measured as a startup storm.
const startFile = join(root, 'start');
const createStart = now();
const panes = await Promise.all(
  kinds.map(async (kind, i) => {
    const { session, file } = paneSessions[i] as { session: Session; file: string };
    // Why: spread the panes over their cycle so the fleet is not in lockstep.
    const offset = session.periodMs > 0 ? Math.floor((i * 7919) % session.periodMs) : (i * 37) % 2000;
    const view = await host.createPane({
      argv: [
        '/usr/bin/perl',
        join(here, 'replay-agent.pl'),
        file,
        startFile,
        String(offset),
        String(session.periodMs),
        session.source,
      ],
      cwd: '/',
    });
    return { kind, session, offset, handle: view.handle, paneKey: view.paneKey };
  }),
);

const panesCreatedMs = now() - createStart;
const t0 = now() + WARMUP_MS;
writeFileSync(`${startFile}.tmp`, `${Math.round(t0)}\n`);
renameSync(`${startFile}.tmp`, startFile);
const panesReadyAt = now();
const stalls: [number, number][] = [];
if (process.env.ORCA_FLEET_DEBUG) {
  let last = now();
  setInterval(() => {
    const at = now();
    if (at - last > 100) stalls.push([Math.round(last - t0), Math.round(at - last)]);
    last = at;
  }, 10).unref();
}
const changes = new Map<string, { at: number; status: string | null }[]>();
host.onVerdict((c) => {
  const list = changes.get(c.handle) ?? [];
  list.push({ at: now(), status: c.verdict.status });
  changes.set(c.handle, list);
});
const menus: { handle: string; at: number }[] = [];
for (const p of panes) {
  if (p.session.menuAt.length === 0) continue;
  // Why: a PTY read may split the marker; the carry keeps the last chunk's end.
  let carry = '';
  host.livePane(p.handle).onOutput((display) => {
    const text = carry + display;
    if (text.includes(p.session.menuMarker)) {
      menus.push({ handle: p.handle, at: now() });
      carry = '';
    } else carry = text.slice(-(p.session.menuMarker.length - 1));
  });
}

const plan = {
  port: host.endpoint.port,
  token: host.endpoint.token,
  t0,
  untilMs: SECONDS * 1000,
  keepAlive: caseName === 'stress',
  panes: panes.map((p) => ({
    paneKey: p.paneKey,
    offset: p.offset,
    periodMs: p.session.periodMs,
    source: p.session.source,
    hooks: p.session.hooks,
  })),
};
const driver = spawn(process.execPath, [join(here, 'hook-driver.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
let driverOut = '';
driver.stdout.on('data', (d) => {
  driverOut += d;
});
// Why: the driver may finish before the measuring window closes; a listener attached later would never fire.
const driverExited = new Promise((resolve) => driver.on('exit', resolve));
driver.stdin.end(JSON.stringify(plan));

await new Promise((r) => setTimeout(r, Math.max(0, t0 - now())));
// Why: the histogram counts the sampling interval itself, so the delay is a sample minus it; 10 ms
// sampling keeps the probe's own wake-ups (1000/s at 1 ms) out of the CPU figure.
const ELD_RESOLUTION_MS = 10;
const eld = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
eld.enable();
// Why: how far each screen worker is behind is what a screen-decided verdict waits for.
const BACKLOG_SAMPLE_MS = 50;
const backlogSamples: { chars: number; behindMs: number }[][] = [];
const backlogTimer = setInterval(() => {
  host.screenBacklog().forEach((b, worker) => {
    const list = backlogSamples[worker] ?? [];
    list.push(b);
    backlogSamples[worker] = list;
  });
}, BACKLOG_SAMPLE_MS);
const evaluationsSoFar = (): number =>
  panes.reduce((sum, p) => sum + (host.livePane(p.handle)?.counters.evaluations ?? 0), 0);
const cpuStart = process.cpuUsage();
const wallStart = now();
const evaluationsStart = evaluationsSoFar();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const cpu = process.cpuUsage(cpuStart);
const evaluations = evaluationsSoFar() - evaluationsStart;
clearInterval(backlogTimer);
const windowEnd = now();
const wallSec = (now() - wallStart) / 1000;
eld.disable();
const rssAfter = process.memoryUsage().rss;
await driverExited;
await new Promise((r) => setTimeout(r, DRAIN_MS));

const { scheduled, results } = JSON.parse(driverOut) as {
  scheduled: number;
  results: {
    seq: number;
    paneKey: string;
    event: string;
    expect: string | null;
    sentAt: number;
    writtenAt?: number;
    status: number;
  }[];
};
const sentOf = new Map(results.map((r) => [r.seq, r]));
if (process.env.ORCA_FLEET_DEBUG) {
  const bySeq = new Map(results.map((r) => [r.seq, r]));
  process.stderr.write(
    `panes ready ${(panesReadyAt - t0).toFixed(0)} ms after t0; loop stalls ${JSON.stringify(stalls)}\n`,
  );
  for (const t of timings) {
    const r = bySeq.get((t.event.payload as { orca_bench_seq?: number }).orca_bench_seq ?? -1);
    if (r)
      process.stderr.write(
        `stages ${r.event} sent ${(r.sentAt - t0).toFixed(0)} written ${((r.writtenAt ?? Number.NaN) - t0).toFixed(0)} in ${(t.ingestedAt - t0).toFixed(0)} ${JSON.stringify(stagesOf(t, r.sentAt, r.writtenAt), (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}\n`,
      );
  }
}
const stages = summariseStages(
  timings.flatMap((timing) => {
    const sent = sentOf.get((timing.event.payload as { orca_bench_seq?: number }).orca_bench_seq ?? -1);
    if (sent === undefined) return [];
    return [{ timing, sentAt: sent.sentAt, ...(sent.writtenAt !== undefined ? { writtenAt: sent.writtenAt } : {}) }];
  }),
);
const byKey = new Map(panes.map((p) => [p.paneKey, p]));
const stored = host.store.countHookRows();
const failed = results.filter((r) => r.status !== 204).length;
const firstChangeAfter = (handle: string, at: number, status?: string): number | null => {
  const hit = (changes.get(handle) ?? []).find((c) => c.at >= at && (status === undefined || c.status === status));
  return hit ? hit.at - at : null;
};
const statusAt = (handle: string, at: number): string | null | undefined =>
  (changes.get(handle) ?? []).filter((c) => c.at <= at).pop()?.status;
const hookLatencies: number[] = [];
let noVerdict = 0;
let alreadyShown = 0;
for (const r of results) {
  if (r.expect === null) continue;
  const pane = byKey.get(r.paneKey);
  // Why: timed from when the request left the driver (its bytes written): the driver's own socket
  // pool can hold a request back for seconds under the stress load (the "client" stage), which no
  // agent's hook, one curl per event, ever waits for. The client stage stays a row of its own.
  const postedAt = r.writtenAt ?? r.sentAt;
  // Why: the status an event brings may already be published (the title or the screen said it
  // first); such an event is counted apart, the others are timed until a verdict shows it.
  if (pane && statusAt(pane.handle, postedAt) === r.expect) {
    alreadyShown += 1;
    continue;
  }
  const ms = pane ? firstChangeAfter(pane.handle, postedAt, r.expect) : null;
  if (ms === null) noVerdict += 1;
  else hookLatencies.push(ms);
  if (process.env.ORCA_FLEET_DEBUG && pane)
    process.stderr.write(
      `${pane.kind} ${r.event} sent ${(r.sentAt - t0).toFixed(0)} → ${ms === null ? 'none' : ms.toFixed(1)}; changes ${JSON.stringify((changes.get(pane.handle) ?? []).map((c) => [Math.round(c.at - t0), c.status]))}\n`,
    );
}
const screenLatencies: number[] = [];
let menusUnseen = 0;
// Why: a menu drawn after the window closed may still be waiting for its verdict when this counts.
for (const m of menus.filter((menu) => menu.at <= windowEnd)) {
  // Why: a PermissionRequest hook may have set the verdict before the menu's bytes were drawn.
  const ms = statusAt(m.handle, m.at) === 'permission' ? 0 : firstChangeAfter(m.handle, m.at, 'permission');
  if (ms === null) menusUnseen += 1;
  else screenLatencies.push(ms);
}
await host.stop();

const pct = percentile;
const cpuSec = (cpu.user + cpu.system) / 1e6;
process.stdout.write(
  `${JSON.stringify({
    case: caseName,
    panes: PANES,
    seconds: wallSec,
    events: { scheduled, sent: results.length, failed, stored, lost: scheduled - stored + failed },
    hook: {
      samples: hookLatencies.length,
      alreadyShown,
      noVerdict,
      p50: pct(hookLatencies, 50),
      p99: pct(hookLatencies, 99),
    },
    screen: {
      expected: panes.filter((p) => p.session.menuAt.length > 0).length,
      samples: screenLatencies.length,
      unseen: menusUnseen,
      p50: pct(screenLatencies, 50),
      p99: pct(screenLatencies, 99),
    },
    stages,
    panesCreatedMs,
    backlog: backlogSamples.map((list) => ({
      charsP99: pct(
        list.map((b) => b.chars),
        99,
      ),
      charsMax: Math.max(0, ...list.map((b) => b.chars)),
      behindMsP99: pct(
        list.map((b) => b.behindMs),
        99,
      ),
      behindMsMax: Math.max(0, ...list.map((b) => b.behindMs)),
    })),
    eventLoopDelayP99Ms: Math.max(0, eld.percentile(99) / 1e6 - ELD_RESOLUTION_MS),
    cpuPercent: (cpuSec / wallSec) * 100,
    cpuSecPerPaneSecond: cpuSec / (PANES * wallSec),
    evaluationsPerSecond: evaluations / wallSec,
    rssPerPaneMb: (rssAfter - rssBefore) / 1024 / 1024 / PANES,
  })}\n`,
);
process.exit(0);
