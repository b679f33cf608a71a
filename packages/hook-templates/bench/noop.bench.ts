import { compareInterleaved, reportBench } from '@orca/bench';
import { AGENT_IDS } from '../src/agents/sources.ts';
import { BENCH_SHELL, benchScripts, payloadOf, run } from './support.ts';

// no-op: each POSIX script with the Orca env unset, 1 MiB in one write, vs `sh -c 'cat >/dev/null'`.
const { scripts } = benchScripts();
const payload = payloadOf(1024 * 1024);
const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' };
for (const agent of AGENT_IDS) {
  const c = await compareInterleaved(
    () => run([BENCH_SHELL, scripts[agent]], payload, env),
    () => run([BENCH_SHELL, '-c', 'cat >/dev/null'], payload, env),
    { samples: 9, warmup: 1 },
  );
  reportBench({ name: `no-op ${agent} (1 MiB, env unset, /bin/sh)`, ...c, target: '<= 1.3', unit: 'ns' });
}
