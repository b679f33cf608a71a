import { compareInterleaved, compareWithFloor, reportBench } from '@orca/bench';
import { AGENT_IDS } from '../src/agents/sources.ts';
import { BENCH_SHELL, benchScripts, payloadOf, run, scriptFloor } from './support.ts';

// no-op: each POSIX script with the Orca env unset, 1 MiB in one write, vs `sh -c 'cat >/dev/null'`.
const { scripts } = benchScripts();
const payload = payloadOf(1024 * 1024);
const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent' };
for (const agent of AGENT_IDS) {
  const ours = () => run([BENCH_SHELL, scripts[agent]], payload, env);
  const baseline = () => run([BENCH_SHELL, '-c', 'cat >/dev/null'], payload, env);
  const name = `no-op ${agent} (1 MiB, env unset, /bin/sh)`;
  const floor = scriptFloor(agent);
  if (floor === null) {
    const c = await compareInterleaved(ours, baseline, { samples: 21, warmup: 1 });
    reportBench({ name, ...c, target: '<= 1.3', unit: 'ns' });
    continue;
  }
  // Why: a script that bounds its read (the agent may hold stdin open) must start a reader program,
  // and one whose agent strips the env must read its ancestors' environ; \`cat\` does neither.
  // That work, written plainly, is the floor measured beside it.
  const c = await compareWithFloor(
    ours,
    // Why: such a script cannot skip early (the env may yet be recovered), so it keeps the payload.
    () => run([BENCH_SHELL, '-c', `payload=$(${floor.capture})\n${floor.extra}`], payload, env),
    baseline,
    { samples: 21, warmup: 1 },
  );
  reportBench({ name, ...c, target: '<= floor × 1.3', unit: 'ns' });
}
