import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareInterleaved, reportBench } from '@orca/bench';
import { AGENT_IDS } from '../src/agents/sources.ts';
import { BENCH_SHELL, benchScripts, payloadOf, run } from './support.ts';

// post: each POSIX script posting 512 KiB to a loopback listener vs bare `curl --data-binary @-`.
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 204;
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const { scripts } = benchScripts();
const payload = payloadOf(512 * 1024);
const env = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  ORCA_AGENT_HOOK_PORT: String(port),
  ORCA_AGENT_HOOK_TOKEN: 'bench',
  ORCA_PANE_KEY: 'bench:0b6e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
};
const bare = ['curl', '-q', '-sS', '-o', '/dev/null', '--data-binary', '@-', `http://127.0.0.1:${port}/hook/codex`];
for (const agent of AGENT_IDS) {
  const c = await compareInterleaved(
    () => run([BENCH_SHELL, scripts[agent]], payload, env),
    () => run(bare, payload, env),
    { samples: 9, warmup: 1 },
  );
  reportBench({ name: `post ${agent} (512 KiB, loopback, /bin/sh)`, ...c, target: '<= 1.15', unit: 'ns' });
}
server.close();
