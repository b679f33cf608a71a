import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileHost, runOrca, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost;
let dataDir: string;

beforeAll(async () => {
  dataDir = join(tempRoot('orca-hostile-run-argv-'), 'data');
  host = await startHostileHost(dataDir);
}, 60_000);

afterAll(async () => {
  await host?.stop();
});

async function paneCount(): Promise<number> {
  const ls = await runOrca(['--json', '--data-dir', dataDir, 'ls']);
  return (JSON.parse(ls.stdout) as { panes: unknown[] }).panes.length;
}

describe('orca run with an empty command', () => {
  it("orca run -- '' is a usage error (exit 2) and creates no pane", async () => {
    const before = await paneCount();
    const run = await runOrca(['--data-dir', dataDir, 'run', '--', '']);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^orca: ORCA_HOST_USAGE: .*empty/m);
    expect(await paneCount()).toBe(before);
  });

  it('orca run with no command at all is a usage error (exit 2) and creates no pane', async () => {
    const before = await paneCount();
    for (const args of [['run'], ['run', '--']]) {
      const run = await runOrca(['--data-dir', dataDir, ...args]);
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr).toMatch(/missing required argument 'cmd'/);
    }
    expect(await paneCount()).toBe(before);
  });

  it('orca --json run -- "" reports the usage error as JSON', async () => {
    const before = await paneCount();
    const run = await runOrca(['--json', '--data-dir', dataDir, 'run', '--', '']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'ORCA_HOST_USAGE', refused: false } });
    expect(await paneCount()).toBe(before);
  });
});
