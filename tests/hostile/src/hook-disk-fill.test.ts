import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_ROWS_PER_PANE_MAX_BYTES, openStore, UNKNOWN_PANE_DROP_LOG_INTERVAL_MS } from '@orca/host';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEndpoint } from './listener-attack-host.ts';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

const MB = 1024 * 1024;
/** The stated bound: one pane's retention cap plus 8 MiB for the schema, indexes and the WAL. */
const STORE_BOUND_BYTES = HOOK_ROWS_PER_PANE_MAX_BYTES + 8 * MB;

function storeBytes(dataDir: string): number {
  return ['', '-wal', '-shm']
    .map((s) => join(dataDir, `orca.sqlite${s}`))
    .reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
}

function fakeKey(i: number): string {
  return `t${String(i).padStart(8, '0')}:${(0x1b4e28ba + i).toString(16).padStart(8, '0')}-2fa1-41d2-883f-0016d3cca427`;
}

describe('attack: fill the disk through the hook listener', () => {
  it(`150 x ~950 KB events for unknown panes plus 40 for a real one leave orca.sqlite under ${STORE_BOUND_BYTES} B`, async () => {
    const root = tempRoot();
    const dataDir = join(root, 'data');
    host = await startHostileHost(dataDir);
    const run = await runOrca(['--json', '--data-dir', dataDir, 'run', '--cwd', '/', '--', 'sleep', '120']);
    expect(run.code).toBe(0);
    const pane = JSON.parse(run.stdout) as { paneKey: string };
    const { port, token } = hookEndpoint(dataDir);
    const blob = 'A'.repeat(950_000);
    const post = async (paneKey: string): Promise<number> => {
      const res = await request(`http://127.0.0.1:${port}/hook/claude`, {
        method: 'POST',
        headers: { 'x-orca-agent-hook-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ paneKey, payload: { hook_event_name: 'Notification', blob } }),
      });
      await res.body.dump();
      return res.statusCode;
    };
    const codes: number[] = [];
    const floodStartedAt = Date.now();
    for (let i = 0; i < 140; i += 1) codes.push(await post(fakeKey(i)));
    // ten more with real curl, as a pane's hook script would send them
    const bodyFile = join(root, 'body.json');
    for (let i = 140; i < 150; i += 1) {
      writeFileSync(bodyFile, JSON.stringify({ paneKey: fakeKey(i), payload: { hook_event_name: 'Stop', blob } }));
      const curl = spawnSync('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-X',
        'POST',
        `http://127.0.0.1:${port}/hook/claude`,
        '-H',
        `X-Orca-Agent-Hook-Token: ${token}`,
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        `@${bodyFile}`,
      ]);
      codes.push(Number(String(curl.stdout)));
    }
    for (let i = 0; i < 40; i += 1) codes.push(await post(pane.paneKey));
    const whileRunning = storeBytes(dataDir);
    expect(await host.stop()).toBe(0);
    host = undefined;
    const floodMs = Date.now() - floodStartedAt;
    const afterStop = storeBytes(dataDir);
    const store = openStore(join(dataDir, 'orca.sqlite'));
    const unknownRows = Array.from({ length: 150 }, (_, i) => store.hookRows(fakeKey(i)).length).reduce(
      (a, b) => a + b,
    );
    const kept = store.hookRows(pane.paneKey);
    store.close();
    const log = readFileSync(join(dataDir, 'logs', 'host.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('hook events for unknown panes dropped'))
      .map((l) => JSON.parse(l) as { dropped: number; totalDropped: number; time: number });
    console.log(
      `store while running ${(whileRunning / MB).toFixed(1)} MB, after stop ${(afterStop / MB).toFixed(1)} MB ` +
        `(bound ${(STORE_BOUND_BYTES / MB).toFixed(1)} MB); real pane kept ${kept.length}/40 rows; ` +
        `drop log lines ${log.length}, dropped ${log.reduce((n, l) => n + l.dropped, 0)}`,
    );
    expect(new Set(codes)).toEqual(new Set([204]));
    expect(unknownRows).toBe(0);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(40);
    expect(whileRunning).toBeLessThan(STORE_BOUND_BYTES);
    expect(afterStop).toBeLessThan(STORE_BOUND_BYTES);
    // Why: the drop line is rate-limited in time (one per interval, and one at stop), so how many
    // lines a flood makes depends on how long it took on this machine; their spacing does not.
    expect(log.length).toBeLessThanOrEqual(Math.ceil(floodMs / UNKNOWN_PANE_DROP_LOG_INTERVAL_MS) + 1);
    const gaps = log.slice(1, -1).map((l, i) => l.time - (log[i]?.time ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(UNKNOWN_PANE_DROP_LOG_INTERVAL_MS - 50);
    expect(log.reduce((n, l) => n + l.dropped, 0)).toBe(150);
    expect(log.at(-1)?.totalDropped).toBe(150);
  }, 240_000);
});
