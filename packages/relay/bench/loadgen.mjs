// Load generator for the relay bench: posts N hook events (2 KiB body, hrtime stamped) with C
// keep-alive clients to 127.0.0.1:PORT and prints one JSON line {n, ms}.
import http from 'node:http';

const [port, token, countRaw, concurrencyRaw, panesRaw] = process.argv.slice(2);
const count = Number(countRaw);
const concurrency = Number(concurrencyRaw);
const panes = Number(panesRaw ?? 64);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const pad = 'p'.repeat(2048 - 200);
let next = 0;
function paneKey(i) {
  return `tab-${i}:${(0x10000000 + i).toString(16)}-e89b-12d3-a456-426614174000`;
}
function post(i) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      paneKey: paneKey(i % panes),
      payload: { t: process.hrtime.bigint().toString(), i, pad },
    });
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/hook/claude',
        agent,
        headers: {
          'x-orca-agent-hook-token': token,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const start = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      await post(i);
    }
  }),
);
process.stdout.write(`${JSON.stringify({ n: count, ms: performance.now() - start })}\n`);
agent.destroy();
