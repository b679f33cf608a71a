import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureMedian, reportBench } from '@orca/bench';
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
const baseline = await measureMedian(() => run([BENCH_SHELL, '-c', 'true'], payload, env), opts);
const piped = await measureMedian(() => run([BENCH_SHELL, '-c', `${join(bin, 'curl')}`], payload, env), opts);
// Why: a script that bounds its read or recovers its env from ancestors does that work too; its
// floor is that work written plainly, piped into the stand-in, less the plain pipe, and it gets the
// others' 1.5 on top.
for (const agent of AGENT_IDS) {
  const script = await measureMedian(() => run([BENCH_SHELL, scripts[agent]], payload, env), opts);
  const ours = Math.max(0, script - piped);
  const floor = scriptFloor(agent);
  const floorRatio =
    floor === null
      ? undefined
      : Math.max(
          0,
          (await measureMedian(
            () => run([BENCH_SHELL, '-c', `${floor.extra}\n${floor.capture} | ${join(bin, 'curl')}`], payload, env),
            opts,
          )) - piped,
        ) / baseline;
  reportBench({
    name: `template ${agent} (script − piped stand-in, /bin/sh)`,
    ours,
    baseline,
    ...(floorRatio === undefined ? { target: '<= 1.5' } : { floor: floorRatio, target: '<= floor + 1.5' }),
    unit: 'ns',
  });
}
