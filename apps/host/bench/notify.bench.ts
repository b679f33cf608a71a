// Permission menu drawn → "needs you" webhook received, at 1 and 100 panes, vs a bare POST to the
// same receiver (the floor: one loopback HTTP request).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reportBench } from '@orca/bench';
import { request } from 'undici';
import { createHost } from '../src/host/host.ts';
import { silentLogger } from '../src/runtime/logger.ts';

const ROUNDS = { 1: 30, 100: 3 } as const;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// A program that draws Claude's shell approval menu on `m` and clears it on `y`.
const AGENT = `process.stdin.setRawMode(true);
process.stdout.write('> ');
process.stdin.on('data', (d) => {
  const k = String(d);
  if (k === 'm') process.stdout.write('\\x1b[2J\\x1b[HBash command\\r\\n\\r\\n  ls\\r\\n\\r\\nDo you want to proceed?\\r\\n\\u276f 1. Yes\\r\\n  2. No\\r\\n');
  if (k === 'y') process.stdout.write('\\x1b[2J\\x1b[H> ');
});
setInterval(() => {}, 1 << 30);`;

const arrivals = new Map<string, number>();
let waiters: (() => void)[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d: Buffer) => {
    body += d.toString();
  });
  req.on('end', () => {
    const e = JSON.parse(body) as { kind: string; handle: string | null };
    if (e.kind === 'waiting' && e.handle) arrivals.set(e.handle, performance.now());
    for (const w of waiters) w();
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const until = (test: () => boolean): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      if (!test()) return;
      waiters = waiters.filter((w) => w !== check);
      resolve();
    };
    waiters.push(check);
    check();
  });

// The floor: the bench's own POST to the receiver.
const floor: number[] = [];
for (let i = 0; i < 60; i++) {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', body: JSON.stringify({ kind: 'floor', handle: null }) });
  await res.body.dump();
  if (i >= 10) floor.push(performance.now() - t0);
}

for (const size of [1, 100] as const) {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'orca-bench-notify-')), 'data');
  const host = await createHost({ dataDir, logger: silentLogger() });
  writeFileSync(
    join(dataDir, 'notify.json'),
    JSON.stringify({ rules: [{ on: 'waiting', sinks: ['hook'] }], sinks: { hook: { type: 'webhook', url } } }),
  );
  const panes = await Promise.all(
    Array.from({ length: size }, () => host.createPane({ argv: [process.execPath, '-e', AGENT], cwd: '/' })),
  );
  await new Promise((r) => setTimeout(r, 1_000));
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS[size]; round++) {
    arrivals.clear();
    const sent = new Map<string, number>();
    for (const p of panes) {
      sent.set(p.handle, performance.now());
      host.send(p.handle, 'm');
    }
    await until(() => panes.every((p) => arrivals.has(p.handle)));
    for (const p of panes) samples.push((arrivals.get(p.handle) ?? 0) - (sent.get(p.handle) ?? 0));
    for (const p of panes) host.send(p.handle, 'y');
    await until(() => panes.every((p) => host.showPane(p.handle).status !== 'permission'));
    await new Promise((r) => setTimeout(r, 300));
  }
  await host.stop();
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  const floor50 = percentile(floor, 50);
  reportBench({
    name: `menu drawn → needs-you webhook received p50, ${size} pane(s) vs bare POST`,
    ours: p50,
    baseline: floor50,
    unit: 'ms',
    target: '-',
  });
  reportBench({
    name: `menu drawn → needs-you webhook received p99, ${size} pane(s) vs 2 s budget`,
    ours: p99,
    baseline: 2_000,
    ratio: p99 / 2_000,
    unit: 'ms',
    target: '<= 1',
  });
}
server.close();
