import { join } from 'node:path';
import { connectRuntime } from '@orca/host';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostileHost, startHostileHost, tempRoot } from './real-host.ts';

let host: HostileHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
});

describe('the hostile suite drives a real host', () => {
  it('starts `orca start`, answers status.get over runtime.sock, and exits 0 on SIGTERM', async () => {
    const dataDir = join(tempRoot(), 'data');
    host = await startHostileHost(dataDir);
    const client = await connectRuntime(dataDir);
    const status = await client.call('status.get');
    client.close();
    expect(status.capabilities).toContain('terminal.multiplex.v1');
    expect(host.alive()).toBe(true);
    expect(await host.stop()).toBe(0);
    host = undefined;
  });
});
