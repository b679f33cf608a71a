// Relay path (POST → guest listener → relay → host ingest) vs direct (POST → host listener):
// added latency (p50/p99), throughput with 16 clients, guest idle CPU, spawns per event.
// The relay runs in a netns holder when the kernel allows it, else in this namespace on a fallback port.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportBench } from '@orca/bench';
import { buildGuestBundle } from '../guest-bundle.config.mjs';
import { guestBundle } from '../src/guest/bundle.ts';
import { createHookListener } from '../src/listener/hook-listener.ts';
import { acceptRelayed } from '../src/listener/trust-boundary.ts';
import type { HookEvent } from '../src/listener/types.ts';
import { type NetnsHolder, netnsSupport, startNetnsHolder } from '../src/manager/netns.ts';
import { createRelayManager } from '../src/manager/relay-manager.ts';
import { enterArgv, netnsSpawner } from '../src/manager/spawners.ts';
import type { GuestHandle, GuestSpawner, SpawnFn } from '../src/manager/types.ts';

const LATENCY_EVENTS = 6_000;
// Why: a p99 is decided by a few dozen events, and a slow spell of this 2-core VM (both paths wait
// on process wake-ups) lasting one round of 500 landed on one path only; 30 rounds of 200 alternate
// the paths often enough that such a spell falls on both.
const LATENCY_ROUNDS = 30;
const THROUGHPUT_EVENTS = 20_000;
const CLIENTS = 16;
const IDLE_MS = 30_000;
const loadgen = fileURLToPath(new URL('./loadgen.mjs', import.meta.url));

await buildGuestBundle();
const token = 'bench-token';
const latDirect: number[] = [];
const latRelay: number[] = [];
/** Which path's round is being timed, and that round's latencies in arrival order. */
let record: { path: 'direct' | 'relay'; into: number[] } | undefined;
const stamp = (e: HookEvent, into: number[] | undefined) => {
  const t = e.payload.t;
  if (into !== undefined && typeof t === 'string') into.push(Number(process.hrtime.bigint() - BigInt(t)) / 1e6);
};
/** When the host took the first and the latest event since `arrivals.first` was cleared. */
const arrivals: { first: number | undefined; last: number } = { first: undefined, last: 0 };
const noteArrival = () => {
  const now = performance.now();
  arrivals.first ??= now;
  arrivals.last = now;
};
let directCount = 0;
let relayCount = 0;
const host = createHookListener({
  token,
  port: 0,
  onEvent: (e) => {
    directCount++;
    noteArrival();
    stamp(e, record?.path === 'direct' ? record.into : undefined);
  },
});
const hostPort = (await host.start()).port;

const support = await netnsSupport();
let holder: NetnsHolder | undefined;
const home = await mkdtemp(join(tmpdir(), 'orca-bench-home-'));
let spawner: GuestSpawner;
if (support.ok) {
  holder = await startNetnsHolder();
  const pid = holder.pid;
  spawner = netnsSpawner({ holderPid: () => pid, home: () => home });
} else {
  console.error(`netns unavailable (${support.reason}); relay runs in this namespace on a fallback port`);
  spawner = {
    ...netnsSpawner({ holderPid: () => 1, home: () => home }),
    launch: (_t, env) => ({
      file: 'sh',
      args: ['-c', `exec sh "$HOME/.orca-guest/relay/${env.ORCA_RELAY_VERSION}/launch.sh"`],
      env: { ...process.env, ...env, HOME: home },
    }),
  };
}
let spawns = 0;
const countingSpawn: SpawnFn = (file, args, options) => {
  spawns++;
  return spawn(file, [...args], options);
};
let guest: GuestHandle | undefined;
const manager = createRelayManager({
  spawners: [spawner],
  bundle: guestBundle(),
  hostPort: () => hostPort,
  hostToken: () => token,
  instanceKey: 'bench',
  spawn: countingSpawn,
  // Why: the host's trust boundary (acceptRelayed) is part of the relay path, as in apps/host.
  ingest: (params, connectionId) => {
    const e = acceptRelayed(params, connectionId, { now: () => Date.now() });
    if ('drop' in e) return e;
    relayCount++;
    noteArrival();
    stamp(e, record?.path === 'relay' ? record.into : undefined);
    return e;
  },
  onConnect: async (g) => {
    guest = g;
  },
});
const view = await manager.ensure('netns', 'bench');
if (view.phase !== 'running' || guest === undefined) throw new Error(`relay did not start: ${view.lastError}`);
const relayPort = guest.boundPort;
const relayPid = guest.pid ?? 0;

function runLoad(viaNetns: boolean, port: number, n: number, c: number): Promise<{ n: number; ms: number }> {
  const argv = [process.execPath, loadgen, String(port), token, String(n), String(c)];
  const full = viaNetns && holder !== undefined ? enterArgv(holder.pid, argv) : argv;
  return new Promise((resolve, reject) => {
    const [file, ...args] = full;
    const p = spawn(file ?? 'node', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { n: number; ms: number }) : reject(new Error(`loadgen exit ${code}`)),
    );
  });
}
async function drain(target: () => number, want: number) {
  while (target() < want) await new Promise((r) => setTimeout(r, 5));
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

// Latency: one client, interleaved rounds. Why: each round is a fresh load generator, whose first
// requests run before its own JIT and sockets are warm; those are the client's cost, not a path's.
const WARM_EVENTS = 20;
async function latencyRound(path: 'direct' | 'relay', n: number): Promise<number[]> {
  const into: number[] = [];
  record = { path, into };
  const count = path === 'direct' ? () => directCount : () => relayCount;
  const before = count();
  await runLoad(path === 'relay', path === 'direct' ? hostPort : relayPort, n + WARM_EVENTS, 1);
  await drain(count, before + n + WARM_EVENTS);
  return into.slice(WARM_EVENTS);
}
for (let round = 0; round < LATENCY_ROUNDS; round++) {
  const n = LATENCY_EVENTS / LATENCY_ROUNDS;
  latDirect.push(...(await latencyRound('direct', n)));
  latRelay.push(...(await latencyRound('relay', n)));
}
record = undefined;
const addedP50 = pct(latRelay, 50) - pct(latDirect, 50);
const addedP99 = pct(latRelay, 99) - pct(latDirect, 99);
console.error(
  `latency ms: direct p50 ${pct(latDirect, 50).toFixed(3)} p99 ${pct(latDirect, 99).toFixed(3)}; relay p50 ${pct(latRelay, 50).toFixed(3)} p99 ${pct(latRelay, 99).toFixed(3)}`,
);
reportBench({
  name: 'relay added latency p99 (ms) vs 2 ms budget',
  ours: addedP99,
  baseline: 2,
  target: '<= 1',
  unit: 'ms',
});
reportBench({
  name: 'relay added latency p50 (ms, informational)',
  ours: addedP50,
  baseline: 2,
  target: 'info',
  unit: 'ms',
});

// Throughput with 16 clients (events/s), interleaved. Why: 4 rounds of 5,000 events per path, the
// path that goes first alternating, and each path's median round; 2 rounds let one slow spell of
// the machine decide the row (0.67–0.75 across full runs).
const THROUGHPUT_ROUNDS = 4;
const tput = { direct: [] as number[], relay: [] as number[] };
const spawnsBefore = spawns;
async function throughputRound(path: 'direct' | 'relay', n: number): Promise<number> {
  const count = path === 'direct' ? () => directCount : () => relayCount;
  const before = count();
  arrivals.first = undefined;
  await runLoad(path === 'relay', path === 'direct' ? hostPort : relayPort, n, CLIENTS);
  await drain(count, before + n);
  // Why: timed at the host, first event to last, so the load generator's own start is no path's.
  return (n - 1) / ((arrivals.last - (arrivals.first ?? arrivals.last) || 1) / 1000);
}
for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
  const n = THROUGHPUT_EVENTS / THROUGHPUT_ROUNDS;
  const order: ('direct' | 'relay')[] = round % 2 === 0 ? ['direct', 'relay'] : ['relay', 'direct'];
  for (const path of order) tput[path].push(await throughputRound(path, n));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
reportBench({
  name: 'relay throughput vs direct (events/s, 16 clients)',
  ours: median(tput.relay),
  baseline: median(tput.direct),
  target: '>= 0.7',
  unit: 'ev/s',
});
reportBench({
  name: `spawn calls during ${THROUGHPUT_EVENTS.toLocaleString('en-US')} relayed events`,
  ours: spawns - spawnsBefore,
  baseline: 1,
  target: '<= 0',
  unit: 'calls',
});

// Idle CPU of the guest relay.
const cpu = () => {
  const f = readFileSync(`/proc/${relayPid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(f[11]) + Number(f[12])) * 10; // clock ticks (100 Hz) → ms
};
/** The relay's CPU ÷ wall over the next `ms`. */
async function cpuShare(ms: number): Promise<number> {
  const c0 = cpu();
  const w0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  return (cpu() - c0) / (performance.now() - w0);
}
// Why: the first half-minute after the throughput rounds holds a one-time settling (60–80 ms of CPU
// about 24 s after the load, in 1-s windows: V8 collecting a heap that just held a full replay
// cache); idle is what a quiet relay then costs. The settling window is printed, not hidden.
const settling = await cpuShare(IDLE_MS);
reportBench({
  name: 'guest relay CPU ÷ wall, the 30 s after the load',
  ours: settling,
  baseline: 0.005,
  target: '-',
  unit: 'ratio',
});
const idle = await cpuShare(IDLE_MS);
reportBench({
  name: 'guest relay idle CPU ÷ wall (30 s)',
  ours: idle,
  baseline: 0.005,
  target: '<= 1',
  unit: 'ratio',
  detail: 'the 30 s after the settling half-minute',
});

manager.disposeAll();
await host.stop();
holder?.kill();
