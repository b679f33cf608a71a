import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookEndpoint } from './listener-attack-host.ts';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

const MB = 1024 * 1024;
let host: HostileHost;
let dataDir: string;

function storeBytes(): number {
  return ['', '-wal']
    .map((s) => join(dataDir, `orca.sqlite${s}`))
    .reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
}

beforeAll(async () => {
  dataDir = join(tempRoot('orca-hostile-gc-'), 'data');
  host = await startHostileHost(dataDir);
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

describe('orca gc', () => {
  it('compacts the store on demand after a pane posted 40 × ~950 KB events, and reports what it did', async () => {
    const run = await runOrca(['--json', '--data-dir', dataDir, 'run', '--cwd', '/', '--', 'sleep', '120']);
    const pane = JSON.parse(run.stdout) as { paneKey: string };
    const { port, token } = hookEndpoint(dataDir);
    const blob = 'A'.repeat(950_000);
    for (let i = 0; i < 40; i += 1) {
      const res = await request(`http://127.0.0.1:${port}/hook/claude`, {
        method: 'POST',
        headers: { 'x-orca-agent-hook-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ paneKey: pane.paneKey, payload: { hook_event_name: 'Notification', blob } }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(204);
    }
    const before = storeBytes();
    const gc = await runOrca(['--json', '--data-dir', dataDir, 'gc', '--full']);
    expect(gc.code).toBe(0);
    const report = JSON.parse(gc.stdout) as Record<string, number>;
    console.log(
      `orca gc --full: ${JSON.stringify(report)}; files ${(before / MB).toFixed(1)} MB → ${(storeBytes() / MB).toFixed(1)} MB`,
    );
    expect(Object.keys(report).sort()).toEqual(
      ['bytesAfter', 'bytesBefore', 'cappedRows', 'expiredRows', 'orphanRows', 'verdictRows'].sort(),
    );
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore as number);
    expect(storeBytes()).toBeLessThan(before);
    const human = await runOrca(['--data-dir', dataDir, 'gc']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^store compacted: \d+ expired, \d+ orphaned, \d+ over-cap hook rows and \d+ old verdicts removed; \d+ KiB → \d+ KiB\n$/,
    );
  }, 120_000);

  it('without a running host it exits 1 with ORCA_HOST_NOT_RUNNING', async () => {
    const none = await runOrca(['--json', '--data-dir', join(tempRoot('orca-hostile-gc-none-'), 'data'), 'gc']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { code: 'ORCA_HOST_NOT_RUNNING' } });
  });
});
