// POSTs each pane's hook events to the real listener at the session's recorded times, over a
// new connection per event the way an agent's hook script (curl) does. Reads its plan as JSON on
// stdin: { port, token, t0, untilMs, panes: [{ paneKey, source, offset, periodMs, hooks: [{at, event, payload, expect}] }] }.
// Prints one JSON line when done: { scheduled, results: [{ seq, paneKey, event, expect, sentAt, writtenAt, status }] };
// `seq` also rides in the payload as `orca_bench_seq`, so the host's timing of the event is found.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const plan = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const results = [];
// Why: the stress case reuses connections (as the old load bench did); real hook scripts do not.
const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let pending = 0;
let scheduled = 0;

function post(pane, hook) {
  const seq = results.length;
  const body = JSON.stringify({ paneKey: pane.paneKey, payload: { ...hook.payload, orca_bench_seq: seq } });
  const record = { seq, paneKey: pane.paneKey, event: hook.event, expect: hook.expect, sentAt: now(), status: 0 };
  results.push(record);
  pending += 1;
  const req = http.request(
    {
      host: '127.0.0.1',
      port: plan.port,
      path: `/hook/${pane.source}`,
      method: 'POST',
      agent: plan.keepAlive ? keepAliveAgent : false,
      headers: {
        'content-type': 'application/json',
        'x-orca-agent-hook-token': plan.token,
        'content-length': Buffer.byteLength(body),
      },
    },
    (res) => {
      res.resume();
      res.on('end', () => {
        record.status = res.statusCode ?? 0;
        pending -= 1;
      });
    },
  );
  // Why: when the request left this process; the rest of the listener stage is the host's.
  req.on('finish', () => {
    record.writtenAt = now();
  });
  req.on('error', () => {
    record.status = -1;
    pending -= 1;
  });
  req.end(body);
}

const end = plan.t0 + plan.untilMs;
for (const pane of plan.panes) {
  const schedule = (k) => {
    for (const hook of pane.hooks) {
      const due = plan.t0 + pane.offset + k * pane.periodMs + hook.at;
      if (due >= end) return false;
      scheduled += 1;
      setTimeout(() => post(pane, hook), Math.max(0, due - now()));
    }
    return pane.periodMs > 0;
  };
  // Why: schedule cycle by cycle so a long run does not hold thousands of timers at once.
  const next = (k) => {
    if (!schedule(k)) return;
    const nextCycle = plan.t0 + pane.offset + (k + 1) * pane.periodMs;
    setTimeout(() => next(k + 1), Math.max(0, nextCycle - 1000 - now()));
  };
  next(0);
}
const done = setInterval(() => {
  if (now() < end || pending > 0) return;
  clearInterval(done);
  keepAliveAgent.destroy();
  process.stdout.write(`${JSON.stringify({ scheduled, results })}\n`);
}, 50);
