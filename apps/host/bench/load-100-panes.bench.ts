// 100 panes, each printing ~50 KB/s (a perl loop in a real PTY) and receiving 10 hook events/s
// from a separate load-generator process (keep-alive HTTP, alternating working/idle events).
// Reports: events lost, verdict latency p50/p99 (POST sent → verdict published), host RSS per pane.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportBench } from '@orca/bench';
import { createHost } from '../src/host/host.ts';
import { silentLogger } from '../src/runtime/logger.ts';

const PANES = Number(process.env.ORCA_BENCH_PANES ?? 100);
const EVENTS_PER_SEC = 10;
const SECONDS = Number(process.env.ORCA_BENCH_SECONDS ?? 10);
const OUTPUT_LOOP = `$|=1; my $l = ("\\e[32mok\\e[0m " . ("x" x 90) . "\\r\\n") x 50; while (1) { print $l; select(undef, undef, undef, 0.1); }`;

const clock = (): number => Date.now();
const rssBefore = process.memoryUsage().rss;
const host = await createHost({
  dataDir: join(mkdtempSync(join(tmpdir(), 'orca-load-')), 'data'),
  logger: silentLogger(),
});
const panes = Array.from({ length: PANES }, () =>
  host.createPane({ argv: ['/usr/bin/perl', '-e', OUTPUT_LOOP], cwd: '/' }),
);
const keyToHandle = new Map(panes.map((p) => [p.paneKey, p.handle]));
const handleToKey = new Map(panes.map((p) => [p.handle, p.paneKey]));
await new Promise((r) => setTimeout(r, 1000));

const latencies: number[] = [];
host.onVerdict((change) => {
  const paneKey = handleToKey.get(change.handle);
  if (!paneKey || change.verdict.status === null) return;
  const last = host.store.lastHookRow(paneKey);
  const sentAt = last?.envelope.payload && (last.envelope.payload as { t?: unknown }).t;
  if (typeof sentAt === 'number') latencies.push(clock() - sentAt);
});

const generator = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const [port, token, seconds, rate, ...keys] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
let sent = 0, failed = 0, inflight = 0;
const end = Date.now() + Number(seconds) * 1000;
const seq = new Map(keys.map((k) => [k, 0]));
function post(key) {
  const n = seq.get(key); seq.set(key, n + 1);
  const body = JSON.stringify({ paneKey: key, payload: { hook_event_name: n % 2 ? 'Stop' : 'UserPromptSubmit', session_id: 's', t: Date.now() } });
  inflight++;
  const req = http.request({ host: '127.0.0.1', port, path: '/hook/claude', method: 'POST', agent,
    headers: { 'content-type': 'application/json', 'x-orca-agent-hook-token': token, 'content-length': Buffer.byteLength(body) } },
    (res) => { res.resume(); res.on('end', () => { inflight--; if (res.statusCode !== 204) failed++; }); });
  req.on('error', () => { inflight--; failed++; });
  req.end(body); sent++;
}
const tick = setInterval(() => {
  if (Date.now() >= end) { clearInterval(tick); const wait = setInterval(() => { if (inflight === 0) { clearInterval(wait); console.log(JSON.stringify({ sent, failed })); agent.destroy(); } }, 20); return; }
  keys.forEach((k, i) => setTimeout(() => post(k), (i * 1000 / Number(rate)) / keys.length));
}, 1000 / Number(rate));
`;
const child = spawn(
  process.execPath,
  [
    '-e',
    generator,
    String(host.endpoint.port),
    host.endpoint.token,
    String(SECONDS),
    String(EVENTS_PER_SEC),
    ...keyToHandle.keys(),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let out = '';
child.stdout.on('data', (d) => {
  out += d;
});
await new Promise((resolve) => child.on('exit', resolve));
await new Promise((r) => setTimeout(r, 500));
const { sent, failed } = JSON.parse(out) as { sent: number; failed: number };
const stored = host.store.countHookRows();
const rssAfter = process.memoryUsage().rss;
await host.stop();

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
reportBench({
  name: `load ${PANES} panes: hook events lost (sent ${sent}, failed ${failed}, stored ${stored})`,
  ours: sent - stored,
  baseline: sent,
  ratio: (sent - stored) / Math.max(1, sent),
  target: '<= 0',
  unit: 'events',
});
reportBench({
  name: `load ${PANES} panes: verdict latency p99 (p50 ${pct(50).toFixed(1)} ms)`,
  ours: pct(99),
  baseline: 50,
  ratio: pct(99) / 50,
  target: '<= 1',
  unit: 'ms',
});
reportBench({
  name: `load ${PANES} panes: host RSS growth per pane`,
  ours: (rssAfter - rssBefore) / 1024 / 1024 / PANES,
  baseline: 1,
  ratio: (rssAfter - rssBefore) / 1024 / 1024 / PANES,
  target: '-',
  unit: 'MB',
});
