import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureSides, reportBench } from '@orca/bench';
import { AGENT_IDS } from '../src/agents/sources.ts';
import { BENCH_SHELL, benchScripts, payloadOf, run, scriptFloor } from './support.ts';

// template: the script's own work (env + endpoint file, 1 KiB, curl = a no-op stand-in) minus
// `sh -c` piping the payload into that stand-in, against `sh -c true`.
const { dir, scripts } = benchScripts();
const bin = join(dir, 'noop-bin');
mkdirSync(bin);
writeFileSync(join(bin, 'curl'), '#!/bin/sh\ncat >/dev/null\n');
chmodSync(join(bin, 'curl'), 0o755);
const endpoint = join(dir, 'endpoint.env');
writeFileSync(
  endpoint,
  'ORCA_AGENT_HOOK_PORT=4711\nORCA_AGENT_HOOK_TOKEN=bench\nORCA_AGENT_HOOK_ENV=bench\nORCA_AGENT_HOOK_VERSION=1\n',
);
const payload = payloadOf(1024);
const env = {
  PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`,
  HOME: '/nonexistent',
  ORCA_AGENT_HOOK_ENDPOINT: endpoint,
  ORCA_AGENT_HOOK_PORT: '4711',
  ORCA_AGENT_HOOK_TOKEN: 'bench',
  ORCA_PANE_KEY: 'bench:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
};
const opts = { samples: 11, warmup: 2 };
const baseline = () => run([BENCH_SHELL, '-c', 'true'], payload, env);
const piped = () => run([BENCH_SHELL, '-c', `${join(bin, 'curl')}`], payload, env);
// Why: every side of a row (the script, the plain pipe, `sh -c true`, and the floor when there is
// one) is timed in the same rounds, so a slow spell of the machine cannot land on one side only.
// A script that bounds its read or recovers its env from ancestors does that work too; its floor
// is that work written plainly, piped into the stand-in, less the plain pipe, and it gets the
// others' 1.5 on top.
for (const agent of AGENT_IDS) {
  const script = () => run([BENCH_SHELL, scripts[agent]], payload, env);
  const floor = scriptFloor(agent);
  const floorSide =
    floor === null
      ? []
      : [() => run([BENCH_SHELL, '-c', `${floor.extra}\n${floor.capture} | ${join(bin, 'curl')}`], payload, env)];
  const [scriptNs = 0, pipedNs = 0, baselineNs = 1, floorNs] = await measureSides(
    [script, piped, baseline, ...floorSide],
    opts,
  );
  reportBench({
    name: `template ${agent} (script − piped stand-in, /bin/sh)`,
    ours: Math.max(0, scriptNs - pipedNs),
    baseline: baselineNs,
    ...(floorNs === undefined
      ? { target: '<= 1.5' }
      : { floor: Math.max(0, floorNs - pipedNs) / baselineNs, target: '<= floor + 1.5' }),
    unit: 'ns',
  });
}
